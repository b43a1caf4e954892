"""Writes a trained classifier as a .tsnet file: a text header (see
vision/cv/cvdnn.h) followed by the ONNX bytes. Shared by the training tools."""
import io

import torch


def export(model, path, name, in_w, in_h, in_c, outputs, comments=()):
    """outputs: [(head_name, letters_string)], in the order model() returns them."""
    model.eval()
    buf = io.BytesIO()
    dummy = torch.zeros(1, in_c, in_h, in_w)
    names = [h for h, _ in outputs]
    torch.onnx.export(model, dummy, buf, input_names=["x"], output_names=names,
                      opset_version=11, dynamic_axes={"x": {0: "n"}, **{h: {0: "n"} for h in names}})
    onnx = buf.getvalue()
    head = ["tsnet 1", f"name {name}", f"input {in_w} {in_h} {in_c}"]
    head += [f"# {c}" for c in comments]
    head += [f"output {h} {len(letters)} {letters}" for h, letters in outputs]
    head.append(f"onnx {len(onnx)}")
    with open(path, "wb") as f:
        f.write(("\n".join(head) + "\n").encode())
        f.write(onnx)
