"""Checks that a rebuilt network agrees with the shapes its config recorded.

A functional config records the shape of every tensor a call received
(``__keras_tensor__`` entries) and each layer's ``build_config`` records the
shape it was built for. A damaged or hand-edited config can describe layers
whose recorded shapes no longer fit together (a kernel built for 8 features
fed 5); such a model would load and then fail, or compute garbage, at its
first call. After the rebuild, each call's actual input shapes are compared
with the recorded ones, and the first disagreement is an error naming it.
"""

from mb_saving._errors import DeserializationError, json_path


def _recorded_shapes(data, found):
    if isinstance(data, dict):
        if data.get("class_name") == "__keras_tensor__" and isinstance(data.get("config"), dict):
            found.append(data["config"].get("shape"))
            return
        for value in data.values():
            _recorded_shapes(value, found)
    elif isinstance(data, list):
        for value in data:
            _recorded_shapes(value, found)


def _is_shape(value):
    return isinstance(value, (list, tuple)) and all(
        d is None or (isinstance(d, int) and not isinstance(d, bool)) for d in value
    )


def _fits(recorded, actual):
    if not _is_shape(recorded) or len(recorded) != len(actual):
        return False
    return all(r is None or a is None or r == a for r, a in zip(recorded, actual, strict=True))


def _fmt(shape):
    return tuple(shape) if _is_shape(shape) else shape


def check_calls(layer, entry, base, where):
    """Each call of `layer` recorded in `entry["inbound_nodes"]` against the rebuilt nodes.

    Args:
        layer: the rebuilt operation.
        entry: its config entry.
        base: how many nodes the operation had before the graph called it.
        where: the entry's JSON path, for the error.
    """
    calls = entry.get("inbound_nodes") or []
    for k, call in enumerate(calls):
        if base + k >= len(layer._inbound_nodes):
            return
        recorded = []
        _recorded_shapes(call, recorded)
        actual = [tuple(t.shape) for t in layer._inbound_nodes[base + k].arguments.keras_tensors]
        pending = list(actual)
        for shape in recorded:
            match = next((a for a in pending if _fits(shape, a)), None)
            if match is None:
                raise DeserializationError(
                    f"{where}.inbound_nodes[{k}]: the config records an input of shape "
                    f"{_fmt(shape)} for this call of '{layer.name}', but the rebuilt graph feeds "
                    f"it {actual}. The config is inconsistent (damaged or edited by hand)."
                )
            pending.remove(match)


def check_build_shape(layer, entry, where):
    """A layer's ``build_config`` input shape against the inputs of its first call."""
    build_config = entry.get("build_config")
    recorded = build_config.get("input_shape") if isinstance(build_config, dict) else None
    nodes = [n for n in layer._inbound_nodes if not n.is_input]
    if recorded is None or not nodes:
        return
    actual = [tuple(t.shape) for t in nodes[0].arguments.keras_tensors]
    expected = [recorded] if _is_shape(recorded) else recorded
    if not isinstance(expected, list) or not all(_is_shape(s) for s in expected):
        return
    # Extra tensors (an explicit mask, say) are not part of the build shape.
    if len(actual) < len(expected) or not all(
        _fits(s, a) for s, a in zip(expected, actual[: len(expected)], strict=True)
    ):
        raise DeserializationError(
            f"{where}: layer '{layer.name}' was built (build_config) for inputs of shape "
            f"{[_fmt(s) for s in expected]}, but in the rebuilt network it receives {actual}. "
            "The config is inconsistent (damaged or edited by hand)."
        )


def check_network(pairs, path):
    """Runs both checks over ``(entry, layer, base, index)`` of a rebuilt network."""
    for entry, layer, base, index in pairs:
        where = json_path([*path, "layers", index])
        if entry.get("inbound_nodes"):
            check_calls(layer, entry, base, where)
        if hasattr(layer, "_inbound_nodes"):
            check_build_shape(layer, entry, where)
