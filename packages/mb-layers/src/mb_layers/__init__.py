"""mb-layers: Layer, the layer families, and the functional and sequential networks."""
