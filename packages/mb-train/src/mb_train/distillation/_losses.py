"""Distillation losses: how a student's outputs are compared with a teacher's
(Keras 3's ``keras.distillation.DistillationLoss`` family)."""

from mb_graph import tree
from mb_ops import ops
from mb_train import losses


def _loss_function(item):
    """A loss from a name or an object (None stays None: that output is skipped)."""
    if item is None:
        return None
    if isinstance(item, str):
        found = losses.get(item)
        if found is None:
            raise ValueError(f"Unknown loss function: '{item}'.")
        return found
    return item


def _losses(structure, owner):
    converted = tree.map_structure(_loss_function, structure)
    if all(item is None for item in tree.flatten(converted)):
        raise ValueError(
            f"The `loss` argument of {owner} must hold at least one loss that is not None. "
            f"Received: loss={structure!r}."
        )
    return converted


def _serialize_losses(structure):
    return tree.map_structure(losses.serialize, structure)


def _deserialize_losses(config):
    if isinstance(config, dict) and "class_name" in config:
        return losses.deserialize(config)
    if isinstance(config, list | tuple):
        return [_deserialize_losses(item) for item in config]
    if isinstance(config, dict):
        return {key: _deserialize_losses(item) for key, item in config.items()}
    return None if config is None else losses.deserialize(config)


def _sum_of(values):
    return ops.sum(ops.stack(tree.flatten(values)))


class DistillationLoss:
    """Base class of the distillation losses: subclass it and implement `compute_loss`.

    A `Distiller` calls `validate_model_compatibility(teacher, student)` once when it
    is built, then, at each step, `validate_outputs` and `compute_loss` on the
    teacher's and the student's outputs (or the features a loss asks for).
    """

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        """The scalar loss between the teacher's and the student's outputs."""
        raise NotImplementedError(
            f"{type(self).__name__} must implement compute_loss(teacher_outputs, "
            "student_outputs, **kwargs) returning a scalar tensor."
        )

    def validate_outputs(self, teacher_outputs, student_outputs):
        """Raises ValueError unless both outputs have the same structure."""
        tree.assert_same_structure(teacher_outputs, student_outputs)

    def validate_model_compatibility(self, teacher, student):
        """Raises ValueError when this loss cannot work with these models (default: any)."""


class FeatureDistillation(DistillationLoss):
    """Matches the student's features to the teacher's: the final outputs, or the
    outputs of two named layers (of Functional or Sequential models).

    Args:
        loss: a loss name (``"mse"``, ``"cosine_similarity"``), a loss object, or a
            structure of them matching the features (None skips that output).
        teacher_layer_name: the teacher layer whose output is distilled (None: the
            model's output).
        student_layer_name: the student layer matched to it (None: the output).

    Example:

    >>> import numpy as np
    >>> loss = FeatureDistillation(loss="mse")
    >>> float(loss.compute_loss(np.ones((2, 3), "float32"), np.zeros((2, 3), "float32")))
    1.0
    """

    def __init__(self, loss="mse", teacher_layer_name=None, student_layer_name=None):
        self.teacher_layer_name = teacher_layer_name
        self.student_layer_name = student_layer_name
        self.loss = _losses(loss, "FeatureDistillation")

    def validate_model_compatibility(self, teacher, student):
        if self.teacher_layer_name is None and self.student_layer_name is None:
            return
        symbolic = [
            role
            for role, model in (("teacher", teacher), ("student", student))
            if getattr(model, "inputs", None) is None
        ]
        if symbolic:
            raise ValueError(
                "FeatureDistillation with layer names needs Functional or Sequential "
                f"models; the {' and '.join(symbolic)} model(s) have no symbolic inputs "
                "(subclassed). Use Functional/Sequential models, drop the layer names to "
                "distill the final outputs, or use LogitsDistillation."
            )
        for role, model, name in (
            ("teacher", teacher, self.teacher_layer_name),
            ("student", student, self.student_layer_name),
        ):
            if name is not None:
                try:
                    model.get_layer(name=name)
                except ValueError as error:
                    raise ValueError(f"In {role} model: {error}") from None

    def validate_outputs(self, teacher_outputs, student_outputs):
        super().validate_outputs(teacher_outputs, student_outputs)
        try:
            tree.assert_same_structure(self.loss, teacher_outputs)
        except (ValueError, TypeError) as error:
            raise ValueError(
                "FeatureDistillation: the structure of `loss` does not match the "
                f"features. Received loss={self.loss!r} for features of structure "
                f"{tree.map_structure(lambda _: '*', teacher_outputs)!r}. ({error})"
            ) from None

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        def one(loss_fn, teacher, student):
            if loss_fn is None:
                return 0.0
            return ops.mean(loss_fn(teacher, student))

        return _sum_of(tree.map_structure(one, self.loss, teacher_outputs, student_outputs))

    def get_config(self):
        return {
            "loss": _serialize_losses(self.loss),
            "teacher_layer_name": self.teacher_layer_name,
            "student_layer_name": self.student_layer_name,
        }

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["loss"] = _deserialize_losses(config["loss"])
        return cls(**config)


class LogitsDistillation(DistillationLoss):
    """Matches the student's logits to the teacher's, both divided by `temperature`.

    With a `KLDivergence` loss object both scaled logits go through a softmax first
    and the loss is multiplied by ``temperature ** 2``; any other loss (the default
    name ``"kl_divergence"`` included, which gives the function) compares the scaled
    logits directly, exactly as Keras 3 does.

    Args:
        temperature: a positive number; higher gives softer targets (3 to 5 is usual).
        loss: a loss name, a loss object, or a structure of them matching the outputs
            (None skips that output).

    Example:

    >>> import numpy as np
    >>> from mb_train.losses import KLDivergence
    >>> loss = LogitsDistillation(temperature=2.0, loss=KLDivergence())
    >>> same = np.array([[1.0, 2.0, 3.0]], "float32")
    >>> round(float(loss.compute_loss(same, same)), 6)
    0.0
    """

    def __init__(self, temperature=3.0, loss="kl_divergence"):
        self.temperature = temperature
        self.loss = _losses(loss, "LogitsDistillation")
        if isinstance(temperature, bool) or not isinstance(temperature, int | float):
            raise ValueError(
                f"LogitsDistillation: temperature must be a number, received "
                f"{temperature!r} (of type {type(temperature).__name__})."
            )
        if temperature <= 0:
            raise ValueError(
                f"LogitsDistillation: temperature must be positive, received {temperature}."
            )

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        def scaled(outputs):
            return tree.map_structure(lambda x: ops.divide(x, self.temperature), outputs)

        def one(loss_fn, teacher, student):
            if loss_fn is None:
                return 0.0
            if isinstance(loss_fn, losses.KLDivergence):
                teacher = ops.softmax(teacher, axis=-1)
                student = ops.softmax(student, axis=-1)
                return ops.mean(loss_fn(teacher, student)) * (self.temperature**2)
            return ops.mean(loss_fn(teacher, student))

        values = tree.map_structure(
            one, self.loss, scaled(teacher_outputs), scaled(student_outputs)
        )
        return _sum_of(values)

    def get_config(self):
        return {"temperature": self.temperature, "loss": _serialize_losses(self.loss)}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["loss"] = _deserialize_losses(config["loss"])
        return cls(**config)
