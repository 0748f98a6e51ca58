from mb_graph import naming


def test_auto_name_is_snake_case_and_uniquified():
    naming.reset_uids()
    assert naming.auto_name("Conv2DTranspose") == "conv2d_transpose"
    assert naming.auto_name("Conv2DTranspose") == "conv2d_transpose_1"
    assert naming.auto_name("Conv2DTranspose") == "conv2d_transpose_2"
    assert naming.uniquify("dense") == "dense"
    assert naming.uniquify("dense") == "dense_1"


def test_reset_uids_starts_counters_afresh():
    naming.reset_uids()
    naming.auto_name("Add")
    naming.reset_uids()
    assert naming.auto_name("Add") == "add"
    assert naming.get_uid("x") == 1
    assert naming.get_uid("x") == 2


def test_get_object_name():
    class HasName:
        name = "given"

    def my_function():
        pass

    assert naming.get_object_name(HasName()) == "given"
    assert naming.get_object_name(my_function) == "my_function"
    assert naming.get_object_name(object()) == "object"
