"""Datasets made from folders of files: images, text, audio (``*_dataset_from_directory``)."""
