"""Hydra (the configuration framework under NeMo, fairseq, composer's trainers and many
research codebases): how it reports the exception that ended a job.

Without ``HYDRA_FULL_ERROR=1``, Hydra's ``run_and_report`` prints a header and then either a
trimmed traceback or, for its own errors, only the exception's text (no class, no frames)::

    Error executing job with overrides: ['xp=base']
    Error in call to target 'src.test.base_test':
    RuntimeError('DataLoader worker (pid(s) 2387) exited unexpectedly')
    full_key: entrypoints1

    Error executing job with overrides: []
    Error locating target 'diffusion.datasets.laion.laion.build_streaming_laion_dataloader', set env var HYDRA_FULL_ERROR=1 to see chained exception.
    full_key: dataset.train_dataset

The header is no failure of its own (a traceback or the message follows); the message lines of
``hydra.errors.InstantiationError`` and of OmegaConf's config errors are, since no exception
line is printed for them.
"""

from parsers.base import Pattern

SOURCE = "hydra"

PATTERNS = (
    Pattern(
        "hydra.job_error_header",
        triggers=("Error executing job with overrides",),
        regex=r"^Error executing job with overrides: (?P<hydra_overrides>.*)$",
        source=SOURCE,
        examples=("Error executing job with overrides: ['xp=base']", "Error executing job with overrides: []"),
    ),
    Pattern(
        "hydra.instantiation_error",
        triggers=("target '",),
        regex=r"^Error (?:locating|in call to|instantiating) target '(?P<hydra_target>[^']+)'",
        source=SOURCE,
        level="ERROR",
        examples=(
            "Error locating target 'diffusion.datasets.laion.laion.build_streaming_laion_dataloader', set env var "
            "HYDRA_FULL_ERROR=1 to see chained exception.",
            "Error in call to target 'src.test.base_test':",
        ),
        near_misses=("hydra.errors.InstantiationError: Error locating target 'x.y'",),
    ),
    # OmegaConf's and Hydra's config errors as the compact report prints them (their text only)
    Pattern(
        "hydra.config_error",
        triggers=("Could not override '", "is not in struct", "Missing mandatory value", "Could not find '",
                  "Could not load '"),
        regex=(r"^(?:Could not override '[^']+'|Key '[^']+' is not in struct|Missing mandatory value: \S+"
               r"|In '[^']+': Could not find '[^']+'|Could not load '[^']+')"),
        source=SOURCE,
        level="ERROR",
        examples=(
            "Could not override 'trainer.devicess'.",
            "Key 'devicess' is not in struct",
            "Missing mandatory value: model.tokenizer.dir",
            "In 'config': Could not find 'model/gpt_13b'",
        ),
        near_misses=("omegaconf.errors.ConfigKeyError: Key 'devicess' is not in struct",),
    ),
)
