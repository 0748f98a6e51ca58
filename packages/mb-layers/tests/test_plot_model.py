"""plot_model / model_to_dot on a nested functional model, compared with Keras 3.15.

The DOT graph must hold Keras's boxes (labels compared as text), Keras's edges
(compared by the labels they join) and clusters; plot_model renders PNG and SVG
with graphviz.
"""

from __future__ import annotations

import json
import shutil

import pytest

import mb_layers
from mb_layers import layers
from mb_ops import testing

pydot = pytest.importorskip("pydot", reason="pydot is mb-layers' optional plotting dependency")

OPTIONS = [
    {},
    {"expand_nested": True},
    {"expand_nested": True, "show_shapes": True, "show_dtype": True, "show_trainable": True,
     "show_layer_activations": True, "rankdir": "LR"},
    {"show_layer_names": False, "show_shapes": True},
]  # fmt: skip

# The same model, written once for mb and once for Keras (`ns` is mb_layers or keras).
_BUILD = """
def build(ns, Model):
    L = ns.layers
    inner_in = ns.Input((8,), name="inner_in")
    h = L.Dense(4, activation="relu", name="inner_dense")(inner_in)
    inner = Model(inner_in, L.Dense(3, name="inner_out")(h), name="inner")
    seq = ns.Sequential([ns.Input((3,)), L.Dense(5, name="seq_a"), L.Dense(3, name="seq_b")],
                        name="seq")
    seq.layers[1].trainable = False
    x = ns.Input((8,), name="x")
    y = ns.Input((3,), name="y")
    a = seq(inner(x))
    b = L.Add(name="add")([a, y])
    out = L.Dense(1, activation="sigmoid", name="head")(b)
    return Model([x, y], out, name="outer")


def structure(dot):
    # (sorted box labels, sorted edges as label pairs, cluster names) of a pydot graph.
    labels, clusters, edges = {}, [], []

    def nodes(g):
        for node in g.get_nodes():
            if node.get_name() not in ("node", "edge", "graph"):
                labels[node.get_name()] = node.get("label")
        for sub in g.get_subgraphs():
            clusters.append(sub.get_name())
            nodes(sub)

    def links(g):
        edges.extend([labels[e.get_source()], labels[e.get_destination()]] for e in g.get_edges())
        for sub in g.get_subgraphs():
            links(sub)

    nodes(dot)
    links(dot)
    return [sorted(labels.values()), sorted(edges), sorted(clusters)]
"""

_KERAS = (
    _BUILD
    + """
import json, sys
import keras
options = json.loads(sys.argv[1])
model = build(keras, keras.Model)
print(json.dumps([structure(keras.utils.model_to_dot(model, **o)) for o in options]))
"""
)


_NAMESPACE = {}
exec(_BUILD, _NAMESPACE)
_structure = _NAMESPACE["structure"]


def _build():
    return _NAMESPACE["build"](mb_layers, mb_layers.Functional)


@pytest.fixture(scope="module", name="keras_dots")
def _keras_dots():
    return testing.keras_json(_KERAS, json.dumps(OPTIONS), backend="numpy")


@pytest.mark.parametrize("index", range(len(OPTIONS)))
def test_dot_source_has_keras_boxes_and_edges(keras_dots, index):
    labels, edges, clusters = _structure(mb_layers.model_to_dot(_build(), **OPTIONS[index]))
    assert [labels, edges, clusters] == keras_dots[index]
    if OPTIONS[index].get("expand_nested"):
        names = " ".join(labels)
        assert "<b>inner_dense</b>" in names and "<b>seq_a</b>" in names
        assert clusters == ["cluster_inner", "cluster_seq"]
        assert any("<b>x</b>" in src and "<b>inner_in</b>" in dst for src, dst in edges)
    else:
        assert len(labels) == 6 and len(edges) == 5  # x, inner, seq, y, add, head


@pytest.mark.skipif(
    shutil.which("dot") is None,
    reason="graphviz (a system package: apt-get install graphviz) is not installed",
)
def test_plot_model_renders_png_and_svg(tmp_path):
    model = _build()
    mb_layers.plot_model(model, tmp_path / "m.png", expand_nested=True, show_shapes=True)
    assert (tmp_path / "m.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    mb_layers.plot_model(model, str(tmp_path / "m.svg"), show_layer_names=True)
    svg = (tmp_path / "m.svg").read_text()
    assert "<svg" in svg and ">head<" in svg and ">inner<" in svg


def test_missing_graphviz_names_the_install_command(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no `dot` anywhere
    with pytest.raises(ImportError, match="apt-get install graphviz"):
        mb_layers.plot_model(_build(), tmp_path / "m.png")
    assert not (tmp_path / "m.png").exists()


def test_unbuilt_model_and_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="has not been built"):
        mb_layers.model_to_dot(mb_layers.Sequential([layers.Dense(2)], name="lazy"))
    with pytest.raises(ValueError, match="layer_range"):
        mb_layers.model_to_dot(_build(), layer_range=["a", "b"])
    with pytest.raises(ValueError, match="unexpected keyword"):
        mb_layers.model_to_dot(_build(), colour=True)
