"""The package ships every subpackage and the bundled lists."""

from __future__ import annotations

import tomllib

from tests.conftest import ROOT


def test_every_subpackage_is_listed_for_installation() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "tui").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert on_disk <= listed, f"add to pyproject.toml packages: {sorted(on_disk - listed)}"
    assert config["tool"]["setuptools"]["package-dir"]["tui.seeds"] == "seeds"
    assert sorted(p.name for p in (ROOT / "seeds").glob("*.txt"))


def test_every_dependency_is_pinned_to_a_range_the_installed_version_is_in() -> None:
    """The ranges say what was tested: each has an upper bound, and this run is in it."""
    from importlib.metadata import version

    from packaging.requirements import Requirement

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for line in config["project"]["dependencies"]:
        requirement = Requirement(line)
        assert any(spec.operator == "<" for spec in requirement.specifier), line
        assert requirement.specifier.contains(version(requirement.name)), line
