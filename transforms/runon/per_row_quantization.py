"""The boundary model's int8 graph, rewritten so that each caption of a batch is quantized on its own.

The model's weights are int8; its activations are quantized at run time
(onnxruntime's dynamic quantization): before each integer matrix product, ONE
scale and zero point are taken from the minimum and maximum of the whole input
tensor. In a batch, a caption's figures would then depend on its neighbours
(by up to 0.5 in a probability), which is why step IV ran each caption alone.

Here every such quantization takes its scale and zero point PER BATCH ROW, by
the very formula onnxruntime uses for the whole tensor (core/util/qmath.h:
min and max widened to include 0, scale = (max - min) / 255, or 1 when they
are equal, zero point = round-half-to-even(clamp(-min / scale, 0, 255))), and
the integer product subtracts each row's zero point exactly, in int32:

    sum_k (q[k] - zp_row) * w[k, n] = sum_k q[k] * w[k, n] - zp_row * sum_k w[k, n]

(the weights' zero point is 0: they are symmetric). The product then becomes
float by the same two roundings as onnxruntime's fused kernel (times the
scales' product, plus the bias). A row alone is the whole tensor, so a caption
alone gets exactly the figures of the model as shipped, and, since no figure
of a row depends on another row any more, the same figures in any batch of
captions of its length (no padding: the attention and every per-row reduction
run over the same positions as alone). tests/unit/runon/test_boundary_model.py
shows both on captions of several lengths.

The rewrite starts from the graph onnxruntime has already fused (the level
ORT_ENABLE_EXTENDED, as a session loads the shipped file), so that every other
kernel (the fused layer norms, GELU and attention products) is the one the
shipped model runs; the rewritten graph is then loaded with no further
optimisation. The weights are not changed; nothing is written to disk but a
temporary copy of the fused graph.
"""
import tempfile
from pathlib import Path

import numpy as np

# The fused nodes onnxruntime makes of the quantized products (com.microsoft contrib ops), and the plain one.
QUANTIZE = "DynamicQuantizeLinear"
QUANTIZED_PRODUCT = "MatMulIntegerToFloat"  # (a_q, b_q, a_scale, b_scale, a_zero_point, b_zero_point, bias)
QUANTIZE_AND_PRODUCT = "DynamicQuantizeMatMul"  # (a, b_q, b_scale, b_zero_point, bias)


def fused_graph(model_path, onnxruntime):
    """The model as onnxruntime fuses it at ORT_ENABLE_EXTENDED (an onnx ModelProto)."""
    import onnx

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 3
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    with tempfile.TemporaryDirectory(prefix="capclean-runon-") as folder:
        options.optimized_model_filepath = str(Path(folder) / "fused.onnx")
        onnxruntime.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
        return onnx.load(options.optimized_model_filepath)


def quantize_per_row(model) -> int:
    """Rewrite `model` (a fused ModelProto) in place so that every dynamic quantization is per batch row;
    returns how many quantizations and products were rewritten. Inputs are [rows, pieces, features]."""
    from onnx import helper, numpy_helper

    graph = model.graph
    weights = {tensor.name: tensor for tensor in graph.initializer}
    nodes, constants = [], []

    def node(op, inputs, outputs, **attributes):
        nodes.append(helper.make_node(op, inputs, outputs, **attributes))

    def constant(name, value):
        constants.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    zero, one, top = constant("per_row/0", np.float32(0)), constant("per_row/1", np.float32(1)), \
        constant("per_row/255", np.float32(255))
    flat = constant("per_row/flat", np.array([-1], np.int64))

    def quantize(x, name):
        """x -> (quantized x, scale [rows, 1, 1], zero point [rows, 1, 1])."""
        node("ReduceMin", [x], [name + "min"], axes=[1, 2], keepdims=1)
        node("ReduceMax", [x], [name + "max"], axes=[1, 2], keepdims=1)
        node("Min", [name + "min", zero], [name + "low"])
        node("Max", [name + "max", zero], [name + "high"])
        node("Sub", [name + "high", name + "low"], [name + "range"])
        node("Div", [name + "range", top], [name + "range/255"])
        node("Equal", [name + "high", name + "low"], [name + "flat"])
        node("Where", [name + "flat", one, name + "range/255"], [name + "scale"])
        node("Div", [name + "low", name + "scale"], [name + "low/scale"])
        node("Sub", [zero, name + "low/scale"], [name + "zero_point_float"])
        node("Clip", [name + "zero_point_float", zero, top], [name + "zero_point_clipped"])
        node("Round", [name + "zero_point_clipped"], [name + "zero_point_rounded"])  # half to even
        node("Cast", [name + "zero_point_rounded"], [name + "zero_point"], to=onnx_type("uint8"))
        node("Reshape", [name + "scale", flat], [name + "scale_per_row"])
        node("Reshape", [name + "zero_point", flat], [name + "zero_point_per_row"])
        node("QuantizeLinear", [x, name + "scale_per_row", name + "zero_point_per_row"], [name + "quantized"], axis=0)
        return name + "quantized", name + "scale", name + "zero_point"

    def product(quantized, scale, zero_point, weight, weight_scale, weight_zero_point, bias, output, name):
        if numpy_helper.to_array(weights[weight_zero_point]).any():
            raise ValueError(f"{weight}: per-row quantization expects symmetric int8 weights (zero point 0)")
        column_sums = numpy_helper.to_array(weights[weight]).astype(np.int32).sum(axis=0, dtype=np.int32)
        node("MatMulInteger", [quantized, weight], [name + "raw"])
        node("Cast", [zero_point], [name + "zero_point_int32"], to=onnx_type("int32"))
        node("Mul", [name + "zero_point_int32", constant(name + "column_sums", column_sums)], [name + "offset"])
        node("Sub", [name + "raw", name + "offset"], [name + "integer"])
        node("Cast", [name + "integer"], [name + "float"], to=onnx_type("float"))
        node("Mul", [scale, weight_scale], [name + "scale"])
        node("Mul", [name + "float", name + "scale"], [name + "scaled"] if bias else [output])
        if bias:
            node("Add", [name + "scaled", bias], [output])

    rewritten = 0
    for number, original in enumerate(graph.node):
        name = f"per_row/{number}/"
        inputs = list(original.input) + [""] * 7
        if original.op_type == QUANTIZE:
            for made, wanted in zip(quantize(original.input[0], name), original.output):
                node("Identity", [made], [wanted])
        elif original.op_type == QUANTIZED_PRODUCT:
            a, b, a_scale, b_scale, a_zero_point, b_zero_point, bias = inputs[:7]
            product(a, a_scale, a_zero_point, b, b_scale, b_zero_point, bias, original.output[0], name + "product/")
        elif original.op_type == QUANTIZE_AND_PRODUCT:
            a, b, b_scale, b_zero_point, bias = inputs[:5]
            product(*quantize(a, name), b, b_scale, b_zero_point, bias, original.output[0], name + "product/")
        else:
            nodes.append(original)
            continue
        rewritten += 1
    del graph.node[:]
    graph.node.extend(nodes)
    graph.initializer.extend(constants)
    return rewritten


def onnx_type(name: str) -> int:
    from onnx import TensorProto

    return {"uint8": TensorProto.UINT8, "int32": TensorProto.INT32, "float": TensorProto.FLOAT}[name]


def per_row_session(model_path, onnxruntime, threads: int = 1):
    """An onnxruntime session of the model at `model_path` whose figures for a row never depend on the others."""
    model = fused_graph(model_path, onnxruntime)
    if quantize_per_row(model) == 0:
        raise ValueError(f"{model_path}: no dynamically quantized product found to make per row")
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.log_severity_level = 3  # the fused graph's unused weight zero points are dropped with a warning each
    # Already fused: a further pass could fuse the bias additions into the layer norms, in another order.
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    return onnxruntime.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
