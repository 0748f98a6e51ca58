"""mb-graph: symbolic tensors, operations, nodes and re-appliable functions."""
