"""Drawing boxes and masks on images and plotting galleries (``keras.visualization``)."""
