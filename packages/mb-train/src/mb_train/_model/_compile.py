"""What `compile` builds: the loss over (nested) outputs, the metrics per output,
and the mean trackers behind the ``loss`` logs."""

from mb_graph import tree
from mb_ops import ops
from mb_train._model import _resolve
from mb_train.metrics import Mean, Metric


def output_names_of(model, y_pred):
    """Names for the flat outputs: dict keys (sorted, the order in which the outputs
    flatten, as in Keras), the functional graph's layer names, or ``output_0``,
    ``output_1``, ... ."""
    if isinstance(y_pred, dict):
        return sorted(y_pred)
    outputs = getattr(model, "_outputs", None)
    flat = tree.flatten(y_pred)
    if outputs is not None and len(outputs) == len(flat):
        names = [t._keras_history.operation.name for t in outputs]
        if len(set(names)) == len(names):
            return names
    if len(flat) == 1:
        return ["output"]
    return [f"output_{i}" for i in range(len(flat))]


def _describe_structure(x):
    if isinstance(x, dict):
        return f"a dict with keys {sorted(x)}"
    if isinstance(x, list | tuple):
        return f"a {type(x).__name__} of {len(x)}"
    return "a single output"


def _per_output(spec, names, what):
    """Spread `spec` (one item, a list, or a dict by output name) over the outputs."""
    if isinstance(spec, dict):
        unknown = sorted(set(spec) - set(names))
        if unknown:
            raise ValueError(
                f"compile({what}=...) has keys {unknown} that are not output names. The "
                f"model's outputs are named {names}. Key the dict by these names."
            )
        return [spec.get(name) for name in names]
    if isinstance(spec, list | tuple) and what != "metrics":
        if len(spec) != len(names):
            raise ValueError(
                f"compile({what}=...) received a {type(spec).__name__} of {len(spec)} "
                f"entries, but the model has {len(names)} output(s) ({names}). Pass one "
                "entry per output, or a dict keyed by output name."
            )
        return list(spec)
    return [spec] * len(names)


def _check_target_keys(y_true, names):
    """A dict of targets must be keyed by exactly the output names (Keras refuses any
    other structure)."""
    unknown = sorted(str(k) for k in y_true if k not in names)
    missing = [n for n in names if n not in y_true]
    if not unknown and not missing:
        return
    problems = []
    if unknown:
        problems.append(f"has key(s) {unknown} that are not output names")
    if missing:
        problems.append(f"has no target for the output(s) {missing}")
    raise ValueError(
        f"The targets `y` are a dict keyed {sorted(str(k) for k in y_true)}, which "
        f"{' and '.join(problems)}. The model's outputs are named {names}: key `y` by "
        "exactly these names (or pass a list in output order)."
    )


def _flat_targets(y_true, y_pred, names):
    flat_pred = [y_pred[n] for n in names] if isinstance(y_pred, dict) else tree.flatten(y_pred)
    if isinstance(y_true, dict):
        _check_target_keys(y_true, names)
        return [y_true[n] for n in names], flat_pred
    flat_true = tree.flatten(y_true) if y_true is not None else [None] * len(flat_pred)
    if len(flat_true) != len(flat_pred):
        raise ValueError(
            f"The model has {len(flat_pred)} output(s) ({names}), but the targets `y` are "
            f"{_describe_structure(y_true)} with {len(flat_true)} array(s). Give one target "
            "per output (a list in output order, or a dict keyed by output name)."
        )
    return flat_true, flat_pred


def _flat_sample_weight(sample_weight, names):
    """One sample weight (or None) per output: a dict by output name, a list in output
    order, or one array shared by every output."""
    if isinstance(sample_weight, dict):
        return [sample_weight.get(n) for n in names]
    if isinstance(sample_weight, list | tuple) and len(names) > 1:
        weights = list(sample_weight)
        if len(weights) != len(names):
            raise ValueError(
                f"`sample_weight` is a {type(sample_weight).__name__} of {len(weights)} "
                f"entries, but the model has {len(names)} outputs ({names}). Pass one "
                "array per output, a dict keyed by output name, or one array for all."
            )
        return weights
    return [sample_weight] * len(names)


def _check_shapes(name, y_true, y_pred):
    if y_true is None or not hasattr(y_true, "shape") or not hasattr(y_pred, "shape"):
        return
    t, p = tuple(y_true.shape), tuple(y_pred.shape)
    if t and p and t[0] is not None and p[0] is not None and t[0] != p[0]:
        raise ValueError(
            f"Output '{name}': the targets have {t[0]} samples in this batch but the "
            f"predictions have {p[0]} (targets shape {t}, predictions shape {p}). x and y "
            "must have the same number of samples."
        )


class CompileLoss:
    """The loss given to `compile`, spread over the model's (nested) outputs."""

    def __init__(self, loss, loss_weights=None):
        self._loss_spec = loss
        self._weights_spec = loss_weights
        self.built = False
        self.losses = []
        self.weights = []
        self.names = []
        self.trackers = []

    def build(self, model, y_true, y_pred):
        names = output_names_of(model, y_pred)
        losses = _per_output(self._loss_spec, names, "loss")
        weights = (
            _per_output(self._weights_spec, names, "loss_weights")
            if self._weights_spec is not None
            else [1.0] * len(names)
        )
        flat_true, flat_pred = _flat_targets(y_true, y_pred, names)
        self.names = names
        self.losses = [_resolve.get_loss(loss) for loss in losses]
        self.weights = [1.0 if w is None else float(w) for w in weights]
        for name, loss, t, p in zip(names, self.losses, flat_true, flat_pred, strict=True):
            if loss is not None:
                if t is None:
                    raise ValueError(
                        f"Output '{name}' has a loss but no target was given. Pass `y` to fit "
                        "(or yield (x, y) batches)."
                    )
                _check_shapes(name, t, p)
        used = [n for n, loss in zip(names, self.losses, strict=True) if loss is not None]
        self.trackers = [Mean(name=f"{n}_loss") for n in used] if len(used) > 1 else []
        self.built = True

    @property
    def variables(self):
        return [v for t in self.trackers for v in t.variables]

    def check(self, y_true, y_pred, sample_weight=None):
        """Computes each output's loss once, without touching the trackers: on
        symbolic predictions, shape errors surface before any step runs."""
        flat_true, flat_pred = _flat_targets(y_true, y_pred, self.names)
        flat_sw = _flat_sample_weight(sample_weight, self.names)
        for loss, t, p, sw in zip(self.losses, flat_true, flat_pred, flat_sw, strict=True):
            if loss is not None:
                loss(t, p, sample_weight=sw)

    def __call__(self, y_true, y_pred, sample_weight=None):
        flat_true, flat_pred = _flat_targets(y_true, y_pred, self.names)
        flat_sw = _flat_sample_weight(sample_weight, self.names)
        total = None
        trackers = iter(self.trackers)
        for loss, w, t, p, sw in zip(
            self.losses, self.weights, flat_true, flat_pred, flat_sw, strict=True
        ):
            if loss is None:
                continue
            value = ops.cast(loss(t, p, sample_weight=sw), "float32")
            tracker = next(trackers, None)
            if tracker is not None:
                tracker.update_state(value, ops.cast(ops.shape(p)[0], "float32"))
            value = value * w if w != 1.0 else value
            total = value if total is None else total + value
        if total is None:
            return ops.convert_to_tensor(0.0, "float32")
        return total


class CompileMetrics(Metric):
    """Metrics (and weighted metrics) given to `compile`, per output: one `Metric`
    (named ``compile_metrics``, as Keras's) whose `result()` is the dict of the
    compiled metrics' results by log name, and whose `variables` are theirs. It is an
    element of ``model.metrics``, so a custom ``train_step`` that updates and reads
    every metric of the model works as in Keras."""

    def __init__(self, metrics=None, weighted_metrics=None, name="compile_metrics"):
        super().__init__(name=name)
        self.name = name  # Keras's name, not made unique
        self._metrics_spec = metrics
        self._weighted_spec = weighted_metrics
        self.built = False
        self.entries = []  # (output index, metric, weighted)
        self.log_names = []

    def build(self, model, y_true, y_pred, losses):
        names = output_names_of(model, y_pred)
        flat_true, flat_pred = _flat_targets(y_true, y_pred, names)
        self.names = names
        self.entries = []
        for spec, weighted in ((self._metrics_spec, False), (self._weighted_spec, True)):
            if spec is None:
                continue
            per_output = _spread_metrics(spec, names)
            for i, items in enumerate(per_output):
                for item in items or []:
                    loss = losses[i] if i < len(losses) else None
                    metric = _resolve.get_metric(item, flat_true[i], flat_pred[i], loss)
                    self.entries.append((i, metric, weighted))
        self._name_metrics()
        self.built = True

    def needs_data(self):
        """Whether some metric sizes its state from data (F1Score, R2Score, multi-label
        AUC) and has not seen any yet."""
        return any(getattr(m, "_built", True) is False for _, m, _ in self.entries)

    def build_from_data(self, y_true, y_pred):
        """Updates those metrics once on concrete data, then resets them: their state
        cannot be created inside the compiled step."""
        flat_true, flat_pred = _flat_targets(y_true, y_pred, self.names)
        for i, metric, _ in self.entries:
            if flat_true[i] is not None and getattr(metric, "_built", True) is False:
                metric.update_state(flat_true[i], flat_pred[i])
                metric.reset_state()

    def _name_metrics(self):
        # Keras's names: with several outputs, the output's name comes first; a name
        # already taken gets "_1", "_2", ..., except a weighted metric's, which first
        # becomes "<output>_weighted_<name>".
        counts = {}
        self.log_names = []
        for i, metric, weighted in self.entries:
            prefix = f"{self.names[i]}_" if len(self.names) > 1 else ""
            name = prefix + metric.name
            if weighted and name in counts:
                name = f"{prefix}weighted_{metric.name}"
            if name in counts:
                counts[name] += 1
                name = f"{name}_{counts[name] - 1}"
            else:
                counts[name] = 1
            self.log_names.append(name)

    @property
    def metrics(self):
        """The compiled metric objects (empty before the first batch builds them)."""
        return [m for _, m, _ in self.entries]

    @property
    def variables(self):
        return [v for metric in self.metrics for v in metric.variables]

    def update_state(self, y_true, y_pred, sample_weight=None):
        if not self.built:
            raise ValueError(
                "The compiled metrics are not built yet: they are built from the first "
                "batch of fit/evaluate/train_on_batch, before any step runs. Call "
                "`update_state` from a step, or run `model.evaluate` on a batch first."
            )
        flat_true, flat_pred = _flat_targets(y_true, y_pred, self.names)
        flat_sw = _flat_sample_weight(sample_weight, self.names)
        for i, metric, weighted in self.entries:
            sw = flat_sw[i] if weighted else None
            metric.update_state(flat_true[i], flat_pred[i], sample_weight=sw)

    def reset_state(self):
        for metric in self.metrics:
            metric.reset_state()

    def result(self):
        """``{log name: result}`` of every compiled metric (Keras's names)."""
        if not self.built:
            raise ValueError("Cannot get result() since the metric has not yet been built.")
        return {
            name: metric.result()
            for name, (_, metric, _) in zip(self.log_names, self.entries, strict=True)
        }

    results = result


def _spread_metrics(spec, names):
    if isinstance(spec, dict):
        per = _per_output(spec, names, "metrics")
        return [[m] if not isinstance(m, list | tuple) and m is not None else m for m in per]
    if isinstance(spec, list | tuple):
        if len(names) > 1 and spec and all(isinstance(s, list | tuple) for s in spec):
            if len(spec) != len(names):
                raise ValueError(
                    f"compile(metrics=...) received {len(spec)} lists, but the model has "
                    f"{len(names)} outputs ({names}). Pass one list per output."
                )
            return [list(s) for s in spec]
        return [list(spec)] * len(names)
    return [[spec]] * len(names)
