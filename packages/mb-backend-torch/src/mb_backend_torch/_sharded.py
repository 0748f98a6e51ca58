"""Variables split over processes: their live value is a DTensor (FSDP2's storage).

Each process keeps its shard of the variable (``DTensor.to_local()``). Reading the
whole values gathers them from every process: a collective, so every process reads
the same variables in the same order, as a training step does. `whole_many` gathers
many variables with one all-gather per mesh axis that splits them (a training step
reads its whole state once, in one collective, instead of one per variable). An
assignment keeps this process's shard of the new, whole value: no communication,
every process computed the same value.

The shards are even (``distribute_variable`` refuses a dimension that does not
divide), so the shard of the process at coordinate ``c`` on a mesh axis of ``n``
processes that splits tensor dimension ``d`` is rows ``[c * size/n, (c+1) *
size/n)`` of ``d``. (``torch.distributed.tensor.distribute_tensor`` cuts by the process's rank
in the axis's process group instead, which is not the same on a mesh that lists
its processes out of order; mb cuts and joins the shards itself, consistently.)
"""

import torch
import torch.distributed as dist
from torch.distributed.tensor import DTensor, Shard


def is_sharded(value):
    """Whether `value` is a DTensor (a variable split over processes)."""
    return isinstance(value, DTensor)


def whole(value):
    """The whole value of a DTensor, gathered from every process (a collective), as a
    plain tensor detached from the shard; other values as they are."""
    return whole_many([value])[0] if isinstance(value, DTensor) else value


def whole_many(values):
    """`values` with each DTensor replaced by its whole value (plain, detached).

    One all-gather per mesh axis that splits some of them (per mesh and dtype), the
    shards of all the values it splits packed into one buffer. A collective: every
    process calls it with the same values in the same order.
    """
    out = list(values)
    groups = {}
    with torch.no_grad():
        for i, value in enumerate(out):
            if isinstance(value, DTensor):
                key = (value.device_mesh, value.dtype, value.to_local().device)
                groups.setdefault(key, []).append(i)
        for (mesh, _, _), indices in groups.items():
            parts = {i: out[i].to_local().detach() for i in indices}
            splits = {i: _splits(out[i].placements) for i in indices}
            # Undo the cuts from the last mesh axis to the first.
            for mesh_dim in reversed(range(mesh.ndim)):
                members = [i for i in indices if mesh_dim in splits[i]]
                if members:
                    _gather_axis(mesh, mesh_dim, members, parts, splits)
            for i in indices:
                out[i] = parts[i]
    return out


def _splits(placements):
    """``{mesh_dim: tensor_dim}`` of the mesh axes that split a DTensor."""
    return {m: p.dim for m, p in enumerate(placements) if isinstance(p, Shard)}


def _gather_axis(mesh, mesh_dim, members, parts, splits):
    # Every process along this mesh axis holds same-shaped parts of each member (even
    # shards): one buffer of all of them, all-gathered, then cut back into pieces and
    # joined in mesh order along each member's split dimension.
    n = mesh.size(mesh_dim)
    flat = torch.cat([parts[i].reshape(-1) for i in members])
    gathered = torch.empty(n * flat.numel(), dtype=flat.dtype, device=flat.device)
    dist.all_gather_into_tensor(gathered, flat, group=mesh.get_group(mesh_dim))
    rows = gathered.view(n, -1)[list(_rows_in_mesh_order(mesh, mesh_dim))]
    start = 0
    for i in members:
        part = parts[i]
        size = part.numel()
        pieces = [row[start : start + size].reshape(part.shape) for row in rows]
        parts[i] = torch.cat(pieces, dim=splits[i][mesh_dim])
        start += size


_ORDER = {}


def _rows_in_mesh_order(mesh, mesh_dim):
    """The rows of an all-gather over mesh axis `mesh_dim` (one per process of its
    group, in group-rank order) sorted by the processes' coordinates on that axis."""
    key = (mesh, mesh_dim)
    order = _ORDER.get(key)
    if order is None:
        ranks = [int(r) for r in dist.get_process_group_ranks(mesh.get_group(mesh_dim))]
        grid = mesh.mesh
        coordinate = {r: int((grid == r).nonzero()[0][mesh_dim]) for r in ranks}
        order = tuple(sorted(range(len(ranks)), key=lambda j: coordinate[ranks[j]]))
        _ORDER[key] = order
    return order


def shard(value, mesh, placements):
    """A DTensor of this process's shard of process 0's `value` (a collective: the
    value is broadcast, then each process keeps its piece)."""
    value = value.detach().contiguous().clone()
    dist.broadcast(value, src=0)
    local = local_shard(value, mesh, placements).contiguous()
    return DTensor.from_local(
        local, mesh, placements, run_check=False, shape=value.shape, stride=value.stride()
    )


def local_shard(value, mesh, placements):
    """This process's shard of the whole `value` laid out by `placements` over
    `mesh` (no communication)."""
    coordinate = mesh.get_coordinate()
    for mesh_dim, tensor_dim in _splits(placements).items():
        length = value.shape[tensor_dim] // mesh.size(mesh_dim)
        value = value.narrow(tensor_dim, coordinate[mesh_dim] * length, length)
    return value


def assign_shard(current, value):
    """Writes this process's shard of the whole `value` into the DTensor `current`."""
    if isinstance(value, DTensor):
        value = whole(value)
    local = current.to_local()
    shard = local_shard(value.detach(), current.device_mesh, current.placements)
    with torch.no_grad():
        local.copy_(shard)
