"""mpirun wrapper: RANK / WORLD_SIZE / LOCAL_RANK from Open MPI's variables, then runs the script.
usage: mpirun ... python mpi_env.py p_train.py ARGS"""
import os, runpy, sys
for k, v in (("RANK", "OMPI_COMM_WORLD_RANK"), ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE"), ("LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK")):
    os.environ.setdefault(k, os.environ[v])
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
