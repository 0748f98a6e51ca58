"""Export of mb models: SavedModel, ONNX, OpenVINO IR, torch ExportedProgram."""
