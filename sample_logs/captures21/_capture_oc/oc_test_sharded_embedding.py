"""Distributed unit tests of the sharded embedding table, run with pytest on the CI's CPU runners (gloo, 4 ranks,
torch's DTensorTestBase / MultiProcessTestCase)."""
import torch
import torch.distributed as dist
from torch.distributed.tensor import Replicate, Shard, distribute_tensor
from torch.testing._internal.common_utils import run_tests
from torch.testing._internal.distributed._tensor.common_dtensor import DTensorTestBase, with_comms

from oc_shardutil import local_row_range, shard_sizes


class ShardedEmbeddingTest(DTensorTestBase):
    @property
    def world_size(self):
        return 4

    @with_comms
    def test_rowwise_roundtrip(self):
        mesh = self.build_device_mesh()
        table = torch.arange(64 * 8, dtype=torch.float32).reshape(64, 8)
        dt = distribute_tensor(table, mesh, [Shard(0)])
        self.assertEqual(dt.full_tensor(), table)

    @with_comms
    def test_replicate_grad_sync(self):
        mesh = self.build_device_mesh()
        g = torch.full((16, 4), float(self.rank))
        dt = distribute_tensor(g, mesh, [Shard(0)]).redistribute(mesh, [Replicate()])
        self.assertEqual(dt.to_local().shape, torch.Size([16, 4]))

    @with_comms
    def test_local_rows_match_dtensor(self):
        mesh = self.build_device_mesh()
        for n_rows in (64, 50, 14):
            table = torch.arange(n_rows * 4, dtype=torch.float32).reshape(n_rows, 4)
            local = distribute_tensor(table, mesh, [Shard(0)]).to_local()
            start, end = local_row_range(n_rows, self.rank, self.world_size)
            self.assertEqual((start, end), (int(local[0, 0].item()) // 4, int(local[-1, 0].item()) // 4 + 1),
                             msg=f"n_rows={n_rows} rank={self.rank}")
            self.assertEqual(local, table[start:end])

    @with_comms
    def test_shard_sizes_sum(self):
        sizes = torch.tensor(shard_sizes(64, self.world_size))
        total = sizes.sum()
        dist.all_reduce(total)
        self.assertEqual(total.item(), 64 * self.world_size)


if __name__ == "__main__":
    run_tests()
