"""What the image module cannot do on OpenVINO: nothing; every image op runs."""

UNSUPPORTED = {}
