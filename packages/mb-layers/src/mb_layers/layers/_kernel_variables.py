"""How `Dense` and `EinsumDense` save and load their variables and form the kernel they
compute with, written once.

Both keep a kernel that LoRA, int8/int4/float8 and GPTQ/AWQ may change; files hold
the variables of the layer's quantization mode in Keras 3.15's order.
"""

from mb_layers._ops import ops
from mb_layers.layers import _quantized, _quantized_gptq


class KernelVariables:
    """The variable files of a layer with a quantizable ``kernel`` (and ``bias``), and
    the kernel it computes with."""

    def _effective_kernel(self, unpack_int4):
        """The float kernel, the integer one (int8, or GPTQ/AWQ once calibrated) or, in
        int4 mode, `unpack_int4` of the packed values; with LoRA, plus its update."""
        if not self.built:
            raise AttributeError("You must build the layer before accessing `kernel`.")
        if _quantized_gptq.is_calibrated(self):
            kernel = _quantized_gptq.integer_kernel(self)
        else:
            kernel = self._kernel
        if self.quantization_mode == "int4":
            kernel = unpack_int4(kernel)
        if self.lora_enabled:
            kernel = ops.cast(
                ops.add(kernel, _quantized.lora_delta(self, "kernel")), self.compute_dtype
            )
        return kernel

    @property
    def variable_serialization_spec(self):
        """The variables each quantization mode saves, in their order in files."""
        return {
            None: ["kernel", "bias"],
            "int8": ["kernel", "bias", "kernel_scale"],
            "int4": ["kernel", "bias", "kernel_scale", "kernel_zero", "g_idx"],
            "float8": [
                "kernel",
                "bias",
                "inputs_scale",
                "inputs_amax_history",
                "kernel_scale",
                "kernel_amax_history",
                "outputs_grad_scale",
                "outputs_grad_amax_history",
            ],
            "gptq": ["bias", "quantized_kernel", "kernel_scale", "kernel_zero", "g_idx"],
            "awq": [
                "bias",
                "quantized_kernel",
                "kernel_scale",
                "kernel_zero",
                "awq_scales",
                "g_idx",
            ],
        }

    def save_own_variables(self, store):
        if not self.built:
            return
        if not _quantized.uses_spec(self):
            return super().save_own_variables(store)
        _quantized.save_kernel_layer(self, store, "kernel", self._merged_kernel())

    def load_own_variables(self, store):
        if not self.built:
            return
        if not _quantized.uses_spec(self):
            return super().load_own_variables(store)
        _quantized_gptq.check_file(self, store)
        _quantized.load_kernel_layer(self, store, "kernel")
        _quantized_gptq.mark_loaded(self)

    # Files then hold the generic layout: mb-saving checks and loads it the stock way.
    load_own_variables.stock_when = _quantized.generic_layout
