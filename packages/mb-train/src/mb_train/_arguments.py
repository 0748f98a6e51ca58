"""Handing a constructor's arguments on to its base class without listing them again."""


def passed_arguments(arguments, *leave_out):
    """The keyword arguments of a constructor, out of its ``locals()``: every parameter
    but ``self`` and `leave_out`, with ``**kwargs`` merged in.

    ``super().__init__(**passed_arguments(locals()))`` hands a subclass's arguments to
    a base that takes the same names; call it before defining other local variables.
    """
    leave_out = {"self", "__class__", "kwargs", *leave_out}
    passed = {key: value for key, value in arguments.items() if key not in leave_out}
    return {**passed, **arguments.get("kwargs", {})}
