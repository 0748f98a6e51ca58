"""``mb inspect FILE``: what a model or weights file holds, without running any of it.

Only JSON and HDF5 headers are read: no class is created and no module is
imported, so inspecting an untrusted file is safe. The report also lists
what safe mode would refuse when loading (lambdas, unknown classes).
"""

import os

from mb_saving import _metadata, _shards
from mb_saving._allow_list import AllowList
from mb_saving._api import _open_model_file
from mb_saving._archive import WEIGHTS
from mb_saving._h5_store import H5Reader


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
    layers, compile summary; model files only), ``weights`` (per group:
    variables with shapes, dtypes and names from mb's manifest),
    ``parameters`` and ``refused_by_safe_mode``.

    Raises:
        FileFormatError: when the file is damaged (nothing is guessed).
    """
    path = os.fspath(filepath)
    info = {"path": path, "keras_version": None, "date_saved": None, "mb": None}
    if path.endswith((".weights.h5", ".weights.json")):
        if path.endswith(".weights.json"):
            reader, block = _shards.open_sharded(path)
            info["kind"] = "sharded weights"
        else:
            reader = H5Reader.open(path, f"'{path}'")
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
            weights = source.weights_file()
        reader = H5Reader.open(weights, f"'{path}' ({WEIGHTS})")
        info["kind"] = "model"
        info["keras_version"] = metadata.get("keras_version")
        info["date_saved"] = metadata.get("date_saved")
        info["model"] = _model_summary(config)
        info["refused_by_safe_mode"] = AllowList(safe_mode=True).problems(config)
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
    refused = info.get("refused_by_safe_mode")
    if refused:
        lines.append("  safe mode would refuse:")
        lines.extend(f"    - {message}" for message in refused)
    return "\n".join(lines)
