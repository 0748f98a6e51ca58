"""``mb inspect FILE``: what a model or weights file holds, without running any of it.

Only JSON and HDF5 headers are read: no class is created, no module is
imported and no HDF5 link is followed, so inspecting an untrusted file is
safe. The report also lists what loading would refuse: HDF5 entries that
point outside the file (external storage or links, virtual datasets, soft
links out of an object's group, filter plugins), never followed, and config
entries outside the allow-list (lambdas, unknown classes).
"""

import os

from mb_saving import _limits, _metadata, _shards
from mb_saving._allow_list import AllowList
from mb_saving._api import _open_model_file
from mb_saving._archive import WEIGHTS
from mb_saving._h5_store import H5Reader
from mb_saving._h5_tree import Finding


def _layers_of(config):
    inner = config.get("config") if isinstance(config, dict) else None
    entries = inner.get("layers") if isinstance(inner, dict) else None
    if not isinstance(entries, list):
        return []
    out = []
    for entry in entries:
        if isinstance(entry, dict):
            layer_config = entry.get("config") if isinstance(entry.get("config"), dict) else {}
            out.append(
                {
                    "name": entry.get("name") or layer_config.get("name"),
                    "class_name": entry.get("class_name"),
                    "module": entry.get("module"),
                }
            )
    return out


def _quantization_of(layer_config):
    """The name of a layer's quantized dtype policy (``"int8_from_float32"``,
    ``"gptq/4/128_from_float32"``, ...), or None for a float layer."""
    dtype = layer_config.get("dtype")
    if not isinstance(dtype, dict):
        return None
    policy = dtype.get("config") if isinstance(dtype.get("config"), dict) else {}
    mode = policy.get("mode")
    if not isinstance(mode, str):  # a float policy (or one this file does not describe)
        return None
    # Keras writes the mode and the source dtype, plus the mode's settings (int4's block
    # size, GPTQ's bits and group size, ...): shown as the policy's name shows them.
    settings = [str(v) for k, v in policy.items() if k not in ("mode", "source_name", "name")]
    return "/".join([mode, *settings]) + f"_from_{policy.get('source_name')}"


def _quantized_layers(config, prefix=""):
    """``{layer path: quantized policy name}`` over every nested layer of a config."""
    inner = config.get("config") if isinstance(config, dict) else None
    entries = inner.get("layers") if isinstance(inner, dict) else None
    found = {}
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        layer_config = entry.get("config") if isinstance(entry.get("config"), dict) else {}
        path = f"{prefix}{entry.get('name') or layer_config.get('name')}"
        mode = _quantization_of(layer_config)
        if mode:
            found[path] = mode
        found.update(_quantized_layers(entry, prefix=f"{path}/"))
    return found


def _model_summary(config):
    compile_config = config.get("compile_config") or {}
    optimizer = compile_config.get("optimizer") if isinstance(compile_config, dict) else None
    inner = config.get("config") if isinstance(config.get("config"), dict) else {}
    return {
        "class_name": config.get("class_name"),
        "module": config.get("module"),
        "registered_name": config.get("registered_name"),
        "name": inner.get("name"),
        "layers": _layers_of(config),
        "quantized": _quantized_layers(config),
        "compiled": bool(compile_config),
        "optimizer": optimizer.get("class_name") if isinstance(optimizer, dict) else optimizer,
        "loss": compile_config.get("loss") if isinstance(compile_config, dict) else None,
    }


def _weights_summary(reader, manifest):
    names = {}
    for entry in manifest or []:
        variables = entry.get("variables") if isinstance(entry.get("variables"), list) else []
        names[entry.get("path")] = [v.get("path") for v in variables if isinstance(v, dict)]
    groups, total = [], 0
    for name in sorted(reader.groups_with_data()):
        path = name[: -len("/vars")] if name != "vars" else ""
        store = reader.get(path)
        known = names.get(path, [])
        variables = []
        for i, key in enumerate(sorted(store.keys(), key=lambda k: (len(k), k))):
            shape, dtype = store.spec(key)
            size = 1
            for d in shape:
                size *= d
            total += size
            variables.append(
                {
                    "key": key,
                    "shape": list(shape),
                    "dtype": dtype,
                    "name": known[i] if len(known) == len(store) else None,
                }
            )
        groups.append({"path": path or "/", "variables": variables})
    return groups, total


def inspect(filepath):
    """Describes a ``.keras``, ``.weights.h5`` or ``.weights.json`` file as a dict.

    Keys: ``path``, ``kind``, ``keras_version``, ``date_saved``, ``mb`` (backend,
    engine and package versions when mb wrote the file), ``model`` (class,
    layers, ``quantized`` — each quantized layer's path and dtype policy, e.g.
    ``int8_from_float32`` — and compile summary; model files only), ``weights`` (per group:
    variables with shapes, dtypes and names from mb's manifest),
    ``parameters``, ``points_outside`` (HDF5 entries that reach outside the
    file, each ``{path, kind, target}``; loading refuses the file, their
    targets were not opened) and ``refused_by_safe_mode`` (config entries
    outside the allow-list; model files only).

    Raises:
        FileFormatError: when the file is damaged (nothing is guessed).
    """
    path = os.fspath(filepath)
    info = {"path": path, "keras_version": None, "date_saved": None, "mb": None}
    if path.endswith((".weights.h5", ".weights.json")):
        if path.endswith(".weights.json"):
            reader, block = _shards.open_sharded(path, strict=False)
            info["kind"] = "sharded weights"
        else:
            reader = H5Reader.open(path, f"'{path}'", strict=False)
            block = _metadata.parse_weights_attribute(
                reader.root_attribute(_metadata.ROOT_ATTRIBUTE)
            )
            info["kind"] = "weights"
        metadata = {"mb": block} if block else {}
        info["date_saved"] = block.get("date_saved") if block else None
    else:
        with _open_model_file(path) as source:
            config = source.config()
            metadata = source.metadata()
            manifest = _metadata.manifest_of(metadata)
            weights = source.weights_file(_limits.WeightsLimit([manifest]))
        reader = H5Reader.open(weights, f"'{path}' ({WEIGHTS})", strict=False)
        info["kind"] = "model"
        info["keras_version"] = metadata.get("keras_version")
        info["date_saved"] = metadata.get("date_saved")
        info["model"] = _model_summary(config)
        info["refused_by_safe_mode"] = AllowList(safe_mode=True).problems(config)
    info["points_outside"] = [finding._asdict() for finding in reader.findings]
    try:
        block = metadata.get("mb")
        if isinstance(block, dict):
            info["mb"] = {k: block.get(k) for k in ("backend", "engine", "versions", "python")}
        info["weights"], info["parameters"] = _weights_summary(
            reader, _metadata.manifest_of(metadata)
        )
    finally:
        reader.close()
    return info


def format_inspection(info):
    """`inspect`'s dict as the text ``mb inspect`` prints."""
    lines = [f"{info['path']}: {info['kind']}"]
    if info.get("keras_version"):
        lines.append(f"  Keras format {info['keras_version']}, saved {info.get('date_saved')}")
    mb = info.get("mb")
    if mb:
        engine = ", ".join(f"{k} {v}" for k, v in (mb.get("engine") or {}).items())
        lines.append(f"  written by mb on backend {mb.get('backend')} ({engine or 'no engine'})")
        versions = ", ".join(f"{k} {v}" for k, v in (mb.get("versions") or {}).items())
        lines.append(f"  versions: {versions}; python {mb.get('python')}")
    else:
        lines.append("  no mb metadata (written by Keras or another tool)")
    model = info.get("model")
    if model:
        name = model.get("registered_name") or model.get("class_name")
        lines.append(f"  model '{model.get('name')}' ({name}), {len(model['layers'])} layer(s)")
        for layer in model["layers"]:
            lines.append(f"    - {layer['name']} ({layer['class_name']})")
        for path, policy in (model.get("quantized") or {}).items():
            lines.append(f"  quantized: {path} ({policy})")
        if model.get("compiled"):
            lines.append(
                f"  compiled: optimizer {model.get('optimizer')}, loss {model.get('loss')}"
            )
    lines.append(
        f"  weights: {info.get('parameters', 0)} values in {len(info['weights'])} group(s)"
    )
    for group in info["weights"]:
        parts = [
            f"{v['name'] or v['key']} {tuple(v['shape'])} {v['dtype']}" for v in group["variables"]
        ]
        lines.append(f"    {group['path']}: {', '.join(parts)}")
    outside = info.get("points_outside")
    if outside:
        lines.append(
            f"  WARNING: {len(outside)} HDF5 "
            + ("entry points" if len(outside) == 1 else "entries point")
            + " outside the file (not followed; loading refuses the file):"
        )
        lines.extend(f"    - {Finding(**finding).describe()}" for finding in outside)
    refused = info.get("refused_by_safe_mode")
    if refused:
        lines.append(
            f"  WARNING: {len(refused)} config entr{'y' if len(refused) == 1 else 'ies'} outside "
            "the allow-list (safe mode refuses them):"
        )
        lines.extend(f"    - {message}" for message in refused)
    return "\n".join(lines)
