"""`Distiller`: a model that trains a student from a frozen teacher and the labels
(Keras 3's ``keras.distillation.Distiller``)."""

from mb_graph import tree
from mb_layers import _dtype_policy, _registry
from mb_ops import ops
from mb_train import metrics
from mb_train._model import Functional, Model, Sequential
from mb_train.distillation._losses import (
    DistillationLoss,
    FeatureDistillation,
    LogitsDistillation,
    _loss_function,
)

_FINAL = "final_output"
_BUILTIN_LOSSES = {cls.__name__: cls for cls in (FeatureDistillation, LogitsDistillation)}


def _check_same(teacher_items, student_items, what, check):
    if teacher_items is None or student_items is None:
        return
    tree.map_structure(check, teacher_items, student_items)


def _check_shapes(what):
    def check(teacher, student):
        t, s = tuple(teacher.shape), tuple(student.shape)
        if len(t) != len(s) or any(
            a is not None and b is not None and a != b for a, b in zip(t, s, strict=False)
        ):
            raise ValueError(
                f"Teacher and student {what} shapes are incompatible. Teacher: {t}, "
                f"Student: {s}. All dimensions must match (None matches any)."
            )

    return check


def _check_dtypes(what):
    def check(teacher, student):
        if teacher.dtype != student.dtype:
            raise ValueError(
                f"Teacher and student {what} dtypes must match. Teacher: {teacher.dtype}, "
                f"Student: {student.dtype}."
            )

    return check


def _serialize_distillation_loss(loss):
    cls = type(loss)
    builtin = cls.__module__.startswith("mb_train.distillation")
    return {
        "module": "keras.distillation" if builtin else cls.__module__,
        "class_name": cls.__name__,
        "config": loss.get_config(),
        "registered_name": None if builtin else cls.__name__,
    }


def _deserialize_distillation_loss(config):
    if isinstance(config, DistillationLoss):
        return config
    cls = _BUILTIN_LOSSES.get(config.get("class_name"))
    if cls is None:
        raise ValueError(
            f"Unknown distillation loss class {config.get('class_name')!r}. Known: "
            "LogitsDistillation, FeatureDistillation; a custom one must be passed as an "
            "object."
        )
    return cls.from_config(config["config"])


class Distiller(Model):
    """Trains `student` on a mix of the labels and a frozen `teacher`'s outputs.

    The loss of a step is ``student_loss_weight * student_loss + (1 -
    student_loss_weight) * distillation_loss``, where ``student_loss`` is the loss
    given to `compile` on the labels and ``distillation_loss`` the weighted sum of the
    `distillation_losses` between teacher and student. ``fit`` logs all three
    (``student_loss``, ``distillation_loss``, ``total_loss``) besides ``loss``.

    Args:
        teacher: a trained model; frozen (``trainable = False``) from now on.
        student: the model to train (`distiller.student` after `fit`).
        distillation_losses: one `DistillationLoss` (`LogitsDistillation`,
            `FeatureDistillation`, a subclass) or a list of them.
        distillation_loss_weights: one weight per distillation loss (default 1 each).
        student_loss_weight: between 0 and 1 (default 0.5).
        name: the model's name.
        **kwargs: passed on to `Model`.

    Example:

    >>> import numpy as np
    >>> from mb_layers import Input, layers
    >>> from mb_train.distillation import LogitsDistillation
    >>> def mlp(width):
    ...     x = Input((4,))
    ...     return Functional(x, layers.Dense(3)(layers.Dense(width, "relu")(x)))
    >>> distiller = Distiller(mlp(16), mlp(4), LogitsDistillation(temperature=3.0))
    >>> distiller.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    >>> logs = distiller.fit(np.ones((8, 4)), np.zeros(8), verbose=0).history
    >>> sorted(logs)
    ['distillation_loss', 'loss', 'student_loss', 'total_loss']
    """

    def __init__(
        self,
        teacher,
        student,
        distillation_losses,
        distillation_loss_weights=None,
        student_loss_weight=0.5,
        name="distiller",
        **kwargs,
    ):
        super().__init__(name=name, **kwargs)
        self._validate_models(teacher, student)
        self.teacher = teacher
        self.student = student
        if isinstance(student_loss_weight, bool) or not isinstance(
            student_loss_weight, int | float
        ):
            raise ValueError(
                f"student_loss_weight must be a number, received {student_loss_weight!r}."
            )
        if not 0.0 <= student_loss_weight <= 1.0:
            raise ValueError(
                f"student_loss_weight must be between 0.0 and 1.0, received {student_loss_weight}."
            )
        self.student_loss_weight = student_loss_weight
        if distillation_losses is None:
            raise ValueError(
                "'distillation_losses' cannot be None. Pass a distillation loss (e.g. "
                "LogitsDistillation() or FeatureDistillation()) or a list of them."
            )
        if not isinstance(distillation_losses, list | tuple):
            distillation_losses, distillation_loss_weights = [distillation_losses], [1.0]
        distillation_losses = list(distillation_losses)
        if distillation_loss_weights is None:
            distillation_loss_weights = [1.0] * len(distillation_losses)
        elif len(distillation_loss_weights) != len(distillation_losses):
            raise ValueError(
                f"Number of distillation_loss_weights ({len(distillation_loss_weights)}) "
                f"must match number of distillation_losses ({len(distillation_losses)})."
            )
        self.distillation_losses = distillation_losses
        self.distillation_loss_weights = list(distillation_loss_weights)
        for loss in self.distillation_losses:
            loss.validate_model_compatibility(teacher, student)
        self._teacher_feature_extractor = self._feature_extractor(teacher, "teacher")
        self._student_feature_extractor = self._feature_extractor(student, "student")
        self.teacher.trainable = False
        self.student_loss_tracker = metrics.Mean(name="student_loss")
        self.distillation_loss_tracker = metrics.Mean(name="distillation_loss")
        self.total_loss_tracker = metrics.Mean(name="total_loss")

    # ----- validation -------------------------------------------------------------------

    def _validate_models(self, teacher, student):
        for role, model in (("Teacher", teacher), ("Student", student)):
            if not isinstance(model, Model):
                raise ValueError(f"{role} must be a keras.Model, received {type(model).__name__}.")
        t_in, s_in = getattr(teacher, "inputs", None), getattr(student, "inputs", None)
        t_out, s_out = getattr(teacher, "outputs", None), getattr(student, "outputs", None)
        _check_same(t_in, s_in, "input", _check_shapes("input"))
        _check_same(t_out, s_out, "output", _check_shapes("output"))
        if t_in is not None and s_in is not None:
            _check_same(t_in, s_in, "input", _check_dtypes("input"))
            _check_same(t_out, s_out, "output", _check_dtypes("output"))

    # ----- features ---------------------------------------------------------------------

    def _feature_extractor(self, model, role):
        """A Functional model giving ``final_output`` and the outputs of the layers the
        distillation losses name for `role`; None when none is named."""
        names = []
        for loss in self.distillation_losses:
            name = getattr(loss, f"{role}_layer_name", None)
            if name and name not in names:
                names.append(name)
        if not names:
            return None
        if getattr(model, "inputs", None) is None:
            raise ValueError(
                f"Cannot extract features from {model.name}: the model has no symbolic "
                "inputs (a subclassed model). Use a Functional or Sequential model."
            )
        final = model.layers[-1].output if isinstance(model, Sequential) else model.output
        outputs = {_FINAL: final}
        for name in names:
            outputs[name] = model.get_layer(name=name).output
        return Functional(
            inputs=model.inputs, outputs=outputs, name=f"{model.name}_multi_feature_extractor"
        )

    def _teacher_features(self, x):
        if self._teacher_feature_extractor is not None:
            return self._teacher_feature_extractor(x, training=False)
        return {_FINAL: self.teacher(x, training=False)}

    def _student_features(self, x, y_pred):
        if self._student_feature_extractor is not None:
            return self._student_feature_extractor(x, training=True)
        return {_FINAL: y_pred}

    @staticmethod
    def _pick(features, name, loss, role):
        key = name or _FINAL
        if key not in features:
            raise RuntimeError(
                f"Failed to extract features for {type(loss).__name__}: {role} layer "
                f"{key!r} not found. Available: {list(features)}."
            )
        return features[key]

    # ----- training ---------------------------------------------------------------------

    def compile(self, optimizer="adam", loss=None, metrics=None, **kwargs):
        """`loss` is the student's supervised loss (required); `metrics` a list."""
        if loss is None:
            raise ValueError(
                "Distiller.compile: 'loss' cannot be None: it is the student's loss on "
                "the labels, e.g. loss='sparse_categorical_crossentropy'."
            )
        if metrics is not None and not isinstance(metrics, list | tuple):
            raise ValueError(
                f"Distiller.compile: metrics must be a list or tuple, received "
                f"{type(metrics).__name__}."
            )
        self._student_loss = tree.map_structure(_loss_function, loss)
        self._student_loss_for_serialization = loss
        super().compile(optimizer=optimizer, loss=None, metrics=metrics, **kwargs)

    def call(self, inputs, training=None, **kwargs):
        """The student's outputs."""
        return self.student(inputs, training=training, **kwargs)

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """``student_loss_weight * student_loss + (1 - student_loss_weight) *
        distillation_loss``; updates the three loss trackers."""
        if y_pred is None:
            y_pred = self(x, training=training)
        student_loss = 0.0
        if self.student_loss_weight > 0.0 and y is not None:
            values = tree.flatten(
                tree.map_structure(lambda fn, t, p: fn(t, p), self._student_loss, y, y_pred)
            )
            student_loss = ops.sum(ops.stack(values)) if len(values) > 1 else values[0]
            if len(getattr(student_loss, "shape", ())) > 0:
                student_loss = ops.mean(student_loss)
        distillation_loss = 0.0
        if self.student_loss_weight < 1.0:
            teacher_features = self._teacher_features(x)
            student_features = self._student_features(x, y_pred)
            for loss, weight in zip(
                self.distillation_losses, self.distillation_loss_weights, strict=True
            ):
                if getattr(loss, "teacher_layer_name", None) is not None:
                    teacher_out = self._pick(
                        teacher_features, loss.teacher_layer_name, loss, "teacher"
                    )
                    student_out = self._pick(
                        student_features, loss.student_layer_name, loss, "student"
                    )
                else:
                    teacher_out, student_out = teacher_features[_FINAL], y_pred
                loss.validate_outputs(teacher_out, student_out)
                value = loss.compute_loss(teacher_out, student_out)
                if len(getattr(value, "shape", ())) > 0:
                    raise ValueError(
                        f"Distillation loss {type(loss).__name__} returned a non-scalar "
                        f"loss of shape {tuple(value.shape)}. compute_loss must return a "
                        "scalar tensor."
                    )
                distillation_loss = ops.add(distillation_loss, ops.multiply(weight, value))
        total = ops.add(
            ops.multiply(self.student_loss_weight, student_loss),
            ops.multiply(1.0 - self.student_loss_weight, distillation_loss),
        )
        self.student_loss_tracker.update_state(student_loss)
        self.distillation_loss_tracker.update_state(distillation_loss)
        self.total_loss_tracker.update_state(total)
        return total

    def reset_metrics(self):
        """Resets every metric, the three loss trackers included."""
        super().reset_metrics()
        for tracker in (
            self.student_loss_tracker,
            self.distillation_loss_tracker,
            self.total_loss_tracker,
        ):
            tracker.reset_state()

    # ----- config -----------------------------------------------------------------------

    def get_config(self):
        return {
            "name": self.name,
            "trainable": self.trainable,
            "dtype": _dtype_policy.serialize(self.dtype_policy),
            "teacher": _registry.serialize(self.teacher),
            "student": _registry.serialize(self.student),
            "distillation_losses": [
                _serialize_distillation_loss(loss) for loss in self.distillation_losses
            ],
            "distillation_loss_weights": self.distillation_loss_weights,
            "student_loss_weight": self.student_loss_weight,
        }

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if isinstance(config.get("dtype"), dict):
            config["dtype"] = _dtype_policy.deserialize(config["dtype"])
        config["teacher"] = _registry.deserialize(config["teacher"])
        config["student"] = _registry.deserialize(config["student"])
        config["distillation_losses"] = [
            _deserialize_distillation_loss(loss) for loss in config["distillation_losses"]
        ]
        return cls(**config)


_registry.register_builtin(Distiller, module="keras.distillation")
