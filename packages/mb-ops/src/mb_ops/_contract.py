"""The written backend contract: the names each backend contract module must provide.

The names are those of Keras 3.15.1's backend modules (``keras/src/backend/<engine>/``),
so a backend is written against the same list Keras' own backends follow. A backend
that cannot provide a name lists it in the module's ``UNSUPPORTED`` dict
(name -> reason) and raises ``NotImplementedError`` naming the op and the backend.
"""

from __future__ import annotations

import importlib
from typing import Any

from mb_ops._backends import CONTRACT_MODULES

_NUMPY = """
abs absolute add all allclose amax amin angle any append arange arccos arccosh arcsin arcsinh
arctan arctan2 arctanh argmax argmin argpartition argsort array array_split average bartlett
bincount bitwise_and bitwise_invert bitwise_left_shift bitwise_not bitwise_or bitwise_right_shift
bitwise_xor blackman broadcast_to cbrt ceil clip concatenate conj conjugate copy corrcoef
correlate cos cosh count_nonzero cross cumprod cumsum deg2rad diag diagflat diagonal diff
digitize divide divide_no_nan dot dsplit dstack einsum empty empty_like equal exp exp2
expand_dims expm1 eye fabs flip fliplr flipud floor floor_divide fmax fmin fmod full full_like
gcd geomspace greater greater_equal hamming hanning heaviside histogram hsplit hstack hypot i0
identity imag inner isclose isfinite isin isinf isnan isneginf isposinf isreal kaiser kron lcm
ldexp left_shift less less_equal linspace log log10 log1p log2 logaddexp logaddexp2 logical_and
logical_not logical_or logical_xor logspace matmul max maximum mean median meshgrid min minimum
mod moveaxis multiply nan_to_num nanargmax nanargmin nancumprod nancumsum nanmax nanmean
nanmedian nanmin nanpercentile nanprod nanquantile nanstd nansum nanvar ndim negative nextafter
nonzero not_equal ones ones_like outer pad percentile power prod ptp quantile rad2deg ravel real
reciprocal repeat reshape right_shift roll rot90 round searchsorted select sign signbit sin sinc
sinh size slogdet sort split sqrt square squeeze stack std subtract sum swapaxes take
take_along_axis tan tanh tensordot tile trace transpose trapezoid tri tril triu true_divide trunc
unique unravel_index vander var vdot vectorize view vsplit vstack where zeros zeros_like
"""

_NN = """
adaptive_average_pool adaptive_max_pool average_pool batch_normalization binary_crossentropy
categorical_crossentropy celu conv conv_transpose ctc_decode ctc_loss depth_to_space
depthwise_conv dot_product_attention elu fold gelu glu hard_shrink hard_sigmoid hard_silu
hard_tanh leaky_relu log_sigmoid log_softmax max_pool moments multi_hot one_hot psnr relu relu6
selu separable_conv sigmoid silu soft_shrink softmax softplus softsign space_to_depth
sparse_categorical_crossentropy sparse_plus sparse_sigmoid sparsemax squareplus tanh tanh_shrink
threshold unfold
"""

_MATH = """
cdist erf erfc erfinv extract_sequences fft fft2 ifft2 in_top_k irfft istft logdet logsumexp
rfft rsqrt segment_max segment_min segment_prod segment_sum stft top_k
"""

_LINALG = """
cholesky cholesky_inverse det eig eigh inv jvp lstsq lu_factor matrix_rank norm pinv qr solve
solve_triangular svd
"""

_CORE = """
IS_THREAD_SAFE SUPPORTS_SPARSE_TENSORS SUPPORTS_RAGGED_TENSORS Variable associative_scan cast
compute_output_spec cond convert_to_numpy convert_to_tensor custom_gradient device_scope
fori_loop is_tensor map random_seed_dtype remat scan scatter scatter_update shape slice
slice_update stop_gradient switch unstack vectorized_map while_loop
"""

_IMAGE = """
affine_transform elastic_transform gaussian_blur hsv_to_rgb map_coordinates
perspective_transform resize rgb_to_grayscale rgb_to_hsv scale_and_translate sobel_edges
"""

_RANDOM = "beta binomial categorical dropout gamma normal randint shuffle truncated_normal uniform"

REQUIRED: dict[str, tuple[str, ...]] = {
    "core": tuple(_CORE.split()),
    "numpy": tuple(_NUMPY.split()),
    "nn": tuple(_NN.split()),
    "math": tuple(_MATH.split()),
    "linalg": tuple(_LINALG.split()),
    "image": tuple(_IMAGE.split()),
    "random": tuple(_RANDOM.split()),
    "rnn": ("rnn", "lstm", "gru", "cudnn_ok"),
    "training": ("value_and_grad", "jit", "multi_step"),
    "layer": (),
    "distribution": ("list_devices",),
    "export": (),
}
"""Per contract module, the names every backend provides (or declares unsupported)."""

OPTIONAL: dict[str, tuple[str, ...]] = {
    "core": ("SUPPORTS_COMPLEX_DTYPES", "name_scope"),
    "math": ("gammainc",),
    "linalg": ("matrix_power",),
    "image": ("compute_homography_matrix",),
    "rnn": ("bidirectional_lstm", "bidirectional_gru"),
    "training": ("fused_update", "foreach_sgd", "foreach_adam", "ASSIGNS_IN_COMPILED"),
    "layer": ("BackendLayer",),
    "distribution": (
        "get_device_count",
        "distribute_tensor",
        "distribute_data_input",
        "initialize",
        "num_processes",
        "process_id",
    ),
}
"""Names a backend may provide; mb uses them when present and falls back otherwise."""

if set(REQUIRED) != set(CONTRACT_MODULES):  # keep the two lists in step
    raise RuntimeError("mb_ops._contract.REQUIRED must cover every CONTRACT_MODULES entry.")


def declared_unsupported(module: Any) -> dict[str, str]:
    """The module's ``UNSUPPORTED`` dict (op name -> reason), or {}."""
    table = getattr(module, "UNSUPPORTED", None)
    return dict(table) if isinstance(table, dict) else {}


def check_backend_contract(package_name: str) -> list[str]:
    """The required ``module.name`` entries a backend package neither provides nor declares.

    Args:
        package_name: the backend's import name, e.g. ``"mb_backend_numpy"``.

    Returns:
        Sorted ``"module.name"`` strings; empty when the backend is complete. A
        missing module counts as missing all its names (``"module.*"`` when the
        module requires none).

    Example:
        >>> check_backend_contract("mb_backend_numpy")  # doctest: +SKIP
        []
    """
    missing: list[str] = []
    for module_name, names in REQUIRED.items():
        try:
            module = importlib.import_module(f"{package_name}.{module_name}")
        except ModuleNotFoundError as error:
            if error.name != f"{package_name}.{module_name}":
                raise
            missing.extend(f"{module_name}.{n}" for n in names)
            if not names:
                missing.append(f"{module_name}.*")
            continue
        unsupported = declared_unsupported(module)
        for name in names:
            if not hasattr(module, name) and name not in unsupported:
                missing.append(f"{module_name}.{name}")
    return sorted(missing)
