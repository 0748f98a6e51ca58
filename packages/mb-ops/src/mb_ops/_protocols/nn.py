"""The ``nn`` contract module: what every backend's ``nn`` provides."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class NN(Protocol):
    """The names every backend's ``nn`` module provides (or declares unsupported)."""

    def adaptive_average_pool(
        self, inputs: Tensor, output_size: Any, data_format: Any = None
    ) -> Any:
        """Average pooling to a fixed output size."""
        ...

    def adaptive_max_pool(self, inputs: Tensor, output_size: Any, data_format: Any = None) -> Any:
        """Max pooling to a fixed output size."""
        ...

    def average_pool(
        self,
        inputs: Tensor,
        pool_size: Any,
        strides: Any = None,
        padding: Any = "valid",
        data_format: Any = None,
    ) -> Any:
        """Average pooling."""
        ...

    def batch_normalization(
        self,
        x: Tensor,
        mean: Any,
        variance: Any,
        axis: Any,
        offset: Any = None,
        scale: Any = None,
        epsilon: Any = 0.001,
    ) -> Any:
        """Normalize ``x`` with given mean and variance, then scale and offset."""
        ...

    def binary_crossentropy(self, target: Tensor, output: Tensor, from_logits: Any = False) -> Any:
        """Binary cross-entropy between targets and predicted probabilities (or logits)."""
        ...

    def categorical_crossentropy(
        self, target: Tensor, output: Tensor, from_logits: Any = False, axis: Any = -1
    ) -> Any:
        """Categorical cross-entropy with one-hot targets."""
        ...

    def celu(self, x: Tensor, alpha: Any = 1.0) -> Any:
        """Continuously-differentiable exponential linear unit."""
        ...

    def conv(
        self,
        inputs: Tensor,
        kernel: Tensor,
        strides: Any = 1,
        padding: Any = "valid",
        data_format: Any = None,
        dilation_rate: Any = 1,
    ) -> Any:
        """N-D convolution (1D, 2D or 3D) of ``inputs`` with ``kernel``."""
        ...

    def conv_transpose(
        self,
        inputs: Tensor,
        kernel: Tensor,
        strides: Any = 1,
        padding: Any = "valid",
        output_padding: Any = None,
        data_format: Any = None,
        dilation_rate: Any = 1,
    ) -> Any:
        """Transposed convolution (deconvolution)."""
        ...

    def ctc_decode(
        self,
        inputs: Tensor,
        sequence_lengths: Any,
        strategy: Any = "greedy",
        beam_width: Any = 100,
        top_paths: Any = 1,
        merge_repeated: Any = True,
        mask_index: Any = 0,
    ) -> Any:
        """Decode CTC outputs (greedy or beam search)."""
        ...

    def ctc_loss(
        self,
        target: Tensor,
        output: Tensor,
        target_length: Any,
        output_length: Any,
        mask_index: Any = 0,
    ) -> Any:
        """Connectionist Temporal Classification loss per batch element."""
        ...

    def depth_to_space(self, x: Tensor, block_size: Any, data_format: Any = "channels_last") -> Any:
        """Rearrange depth (channels) into spatial blocks."""
        ...

    def depthwise_conv(
        self,
        inputs: Tensor,
        kernel: Tensor,
        strides: Any = 1,
        padding: Any = "valid",
        data_format: Any = None,
        dilation_rate: Any = 1,
    ) -> Any:
        """Depthwise convolution: each input channel convolved with its own filters."""
        ...

    def dot_product_attention(
        self,
        query: Tensor,
        key: Tensor,
        value: Tensor,
        bias: Tensor = None,
        mask: Tensor = None,
        scale: Any = None,
        is_causal: Any = False,
        flash_attention: Any = None,
        attn_logits_soft_cap: Any = None,
    ) -> Any:
        """Scaled dot-product attention ``softmax(q k^T * scale + bias) v``."""
        ...

    def elu(self, x: Tensor, alpha: Any = 1.0) -> Any:
        """Exponential linear unit."""
        ...

    def fold(
        self,
        x: Tensor,
        output_size: Any,
        kernel_size: Any,
        dilation: Any = 1,
        padding: Any = 0,
        stride: Any = 1,
    ) -> Any:
        """Combine sliding local blocks into a tensor (inverse of ``unfold``)."""
        ...

    def gelu(self, x: Tensor, approximate: Any = True) -> Any:
        """Gaussian error linear unit."""
        ...

    def glu(self, x: Tensor, axis: Any = -1) -> Any:
        """Gated linear unit: ``a * sigmoid(b)`` of the two halves along ``axis``."""
        ...

    def hard_shrink(self, x: Tensor, threshold: Any = 0.5) -> Any:
        """Hard shrinkage."""
        ...

    def hard_sigmoid(self, x: Tensor) -> Any:
        """Piecewise-linear approximation of the sigmoid."""
        ...

    def hard_silu(self, x: Tensor) -> Any:
        """``x * hard_sigmoid(x)``."""
        ...

    def hard_tanh(self, x: Tensor) -> Any:
        """``clip(x, -1, 1)``."""
        ...

    def leaky_relu(self, x: Tensor, negative_slope: Any = 0.2) -> Any:
        """Leaky ReLU."""
        ...

    def log_sigmoid(self, x: Tensor) -> Any:
        """Logarithm of the sigmoid."""
        ...

    def log_softmax(self, x: Tensor, axis: Any = -1) -> Any:
        """Log-softmax along ``axis``."""
        ...

    def max_pool(
        self,
        inputs: Tensor,
        pool_size: Any,
        strides: Any = None,
        padding: Any = "valid",
        data_format: Any = None,
    ) -> Any:
        """Max pooling."""
        ...

    def moments(
        self, x: Tensor, axes: Any, keepdims: Any = False, synchronized: Any = False
    ) -> Any:
        """Mean and variance of ``x`` over ``axes``."""
        ...

    def multi_hot(
        self,
        inputs: Tensor,
        num_classes: Any,
        axis: Any = -1,
        dtype: Any = None,
        sparse: Any = False,
    ) -> Any:
        """Multi-hot encoding of sets of integer classes."""
        ...

    def one_hot(
        self, x: Tensor, num_classes: Any, axis: Any = -1, dtype: Any = None, sparse: Any = False
    ) -> Any:
        """One-hot encoding of integer classes."""
        ...

    def psnr(self, x1: Tensor, x2: Tensor, max_val: Any) -> Any:
        """Peak signal-to-noise ratio between two images."""
        ...

    def relu(self, x: Tensor) -> Any:
        """Rectified linear unit: ``max(x, 0)``."""
        ...

    def relu6(self, x: Tensor) -> Any:
        """``min(max(x, 0), 6)``."""
        ...

    def selu(self, x: Tensor) -> Any:
        """Scaled exponential linear unit."""
        ...

    def separable_conv(
        self,
        inputs: Tensor,
        depthwise_kernel: Any,
        pointwise_kernel: Any,
        strides: Any = 1,
        padding: Any = "valid",
        data_format: Any = None,
        dilation_rate: Any = 1,
    ) -> Any:
        """Depthwise convolution followed by a pointwise (1x1) convolution."""
        ...

    def sigmoid(self, x: Tensor) -> Any:
        """Logistic sigmoid."""
        ...

    def silu(self, x: Tensor) -> Any:
        """Sigmoid linear unit ``x * sigmoid(x)`` (Swish)."""
        ...

    def soft_shrink(self, x: Tensor, threshold: Any = 0.5) -> Any:
        """Soft shrinkage."""
        ...

    def softmax(self, x: Tensor, axis: Any = -1) -> Any:
        """Softmax along ``axis``."""
        ...

    def softplus(self, x: Tensor) -> Any:
        """``log(exp(x) + 1)``."""
        ...

    def softsign(self, x: Tensor) -> Any:
        """``x / (abs(x) + 1)``."""
        ...

    def space_to_depth(self, x: Tensor, block_size: Any, data_format: Any = "channels_last") -> Any:
        """Rearrange spatial blocks into depth (channels)."""
        ...

    def sparse_categorical_crossentropy(
        self, target: Tensor, output: Tensor, from_logits: Any = False, axis: Any = -1
    ) -> Any:
        """Categorical cross-entropy with integer class targets."""
        ...

    def sparse_plus(self, x: Tensor) -> Any:
        """SparsePlus activation."""
        ...

    def sparse_sigmoid(self, x: Tensor) -> Any:
        """Piecewise-linear sigmoid."""
        ...

    def sparsemax(self, x: Tensor, axis: Any = -1) -> Any:
        """Sparsemax along ``axis``."""
        ...

    def squareplus(self, x: Tensor, b: Tensor = 4) -> Any:
        """``(x + sqrt(x**2 + b)) / 2``."""
        ...

    def tanh(self, x: Tensor) -> Any:
        """Hyperbolic tangent activation."""
        ...

    def tanh_shrink(self, x: Tensor) -> Any:
        """``x - tanh(x)``."""
        ...

    def threshold(self, x: Tensor, threshold: Any, default_value: Any) -> Any:
        """``x`` where ``x > threshold``, else ``default_value``."""
        ...

    def unfold(
        self, x: Tensor, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1
    ) -> Any:
        """Extract sliding local blocks (torch's ``unfold``): (N, C*kh*kw, L)."""
        ...


class NNOptional(Protocol):
    """Names a backend's ``nn`` module may provide; mb uses them when present.

    The quantized products of ``mb_ops._ops.nn_quantization``; without them the
    composite fallback (a plain product giving the same numbers) runs.
    """

    def int8_matmul(self, x1: Tensor, x2: Tensor) -> Any:
        """``x1 @ x2`` of int8 ``(..., K)`` and ``(K, N)`` tensors, exact in int32."""
        ...

    def float8_matmul(
        self,
        x1: Tensor,
        x2: Tensor,
        x1_scale: Any,
        x2_scale: Any,
        output_dtype: Any = "float32",
    ) -> Any:
        """``(x1 * x1_scale) @ (x2 * x2_scale)`` of float8 tensors, accumulated in float32."""
        ...
