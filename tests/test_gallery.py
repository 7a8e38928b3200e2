"""The notebook gallery (issue 23): docs/gallery/*.py, jupytext "percent" notebooks (and any
MyST-markdown notebook there, ``*.md`` with a python kernelspec).

Where the notebooks run:

- by the documentation build (``tests/test_docs.py::test_documentation_site_builds_strictly``,
  marked ``slow``: CI's second step runs it): mkdocs.yml's mkdocs-jupyter plugin executes every
  gallery notebook with ``allow_errors: false`` and no cache, so the build fails with the
  failing cell's source and traceback (and a reader of the site sees only outputs of the code
  built);
- here, marked ``slow`` (CI runs it): each notebook executed on its own with nbclient in a
  fresh kernel, a store of its own and a temporary working directory; a failing cell fails the
  test with that cell's source and error. The notebooks check their figures against their
  sources with ``assert`` lines, so a wrong answer is a failing cell. Every output that shows an
  object of the library (or a list, tuple, set or dict holding one) must carry a rich display
  (``text/html``, ``text/latex`` or an image): a first cell of the test's own tags each
  displayed object with its type (issue 23: "running the gallery shows a rich display for
  every object it produces").

The default tests below check the gallery's wiring without executing anything: every notebook
is a jupytext notebook with a python3 kernel, in the site's navigation and in the gallery
index, says what a reader should see, and uses the public API only (``import cgtalg as cg``, and
the public names of a subpackage, ``from cgtalg.misere import misere_class``).
"""

from __future__ import annotations

import importlib
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
GALLERY = ROOT / "docs" / "gallery"


def _is_notebook(path: pathlib.Path) -> bool:
    """A gallery notebook: a percent-format .py file, or MyST markdown with a python kernelspec
    (what mkdocs-jupyter executes; a plain page such as index.md is not one)."""
    if path.suffix == ".py":
        return True
    head = path.read_text().split("\n---", 1)[0]
    return path.suffix == ".md" and head.startswith("---") and "kernelspec" in head


NOTEBOOKS = sorted(p for p in GALLERY.iterdir() if p.suffix in (".py", ".md") and _is_notebook(p))
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_gallery_has_the_issue_notebooks():
    # issue 23, item 2: Kayles, .123, Spindler, Guy's parity game, Domineering, a census, nimbers
    names = {p.stem for p in NOTEBOOKS}
    assert {"kayles", "plambeck_123", "spindler_nim", "parity_game", "domineering",
            "octal_census", "ordinal_nimbers"} <= names, names


def test_site_executes_the_gallery():
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    # mkdocs.yml may use tags such as !ENV or !!python/name: read them as plain values
    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=Loader)
    plugins = {}
    for entry in config["plugins"]:
        plugins.update(entry if isinstance(entry, dict) else {entry: {}})
    jupyter = plugins["mkdocs-jupyter"]
    assert jupyter["execute"] is True and jupyter["allow_errors"] is False
    assert jupyter.get("cache") is False  # its cache key ignores the library's code

    def pages(nav):
        for item in nav:
            if isinstance(item, str):
                yield item
            elif isinstance(item, dict):
                for value in item.values():
                    yield from (pages(value) if isinstance(value, list) else [value])

    listed = set(pages(config["nav"]))
    index = (GALLERY / "index.md").read_text()
    assert "gallery/index.md" in listed
    for nb in NOTEBOOKS:
        assert f"gallery/{nb.name}" in listed, f"{nb.name} is not in mkdocs.yml's nav"
        assert f"({nb.name})" in index, f"{nb.name} is not linked from docs/gallery/index.md"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_a_text_notebook_on_the_public_api(path):
    import jupytext

    text = path.read_text()
    nb = jupytext.reads(text, fmt="py:percent" if path.suffix == ".py" else "md:myst")
    assert nb.metadata["kernelspec"]["name"] == "python3"
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert code and markdown.startswith("# "), "a title, then the walk-through"
    assert "What you should see" in markdown
    assert any("assert " in c for c in code), "the notebook checks its figures against its source"
    assert "import cgtalg as cg" in text
    # the public API: the top level, and since 0.2.0 the public names of a subpackage (its
    # ``__all__``: ``from cgtalg.misere import misere_class``), never a module inside one
    private = []
    for ln in text.splitlines():
        m = re.match(r"\s*from (cgtalg[.\w]*) import (.+)", ln)
        if re.match(r"\s*import cgtalg\.", ln):
            private.append(ln)
        elif m:
            package, names = m.group(1), [n.strip().split(" as ")[0] for n in m.group(2).strip("() ").split(",")]
            if package.count(".") != 1:
                private.append(ln)
                continue
            public = set(getattr(importlib.import_module(package), "__all__", ()))
            if not all(n in public for n in names if n):
                private.append(ln)
    assert not private, f"public API only (import cgtalg as cg, or a subpackage's public names): {private}"
    # the text round-trips, so the file is what Jupyter (with jupytext) saves (up to the
    # jupytext version written in the header)
    def body(t):
        return [ln for ln in t.strip().splitlines() if not re.match(r"#\s+(jupytext_)?(format_)?version:", ln)]
    if path.suffix == ".py":
        assert body(jupytext.writes(nb, fmt="py:percent")) == body(text)


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path, monkeypatch):
    import jupytext
    import nbclient
    import nbformat
    from nbclient.exceptions import CellExecutionError

    monkeypatch.setenv("CGTALG_STORE", str(tmp_path / "store.sqlite"))
    monkeypatch.delenv("MPLBACKEND", raising=False)
    nb = jupytext.read(path)
    # a first cell of our own (not in the notebook file) that tags every displayed object with
    # its type, so the check below knows which outputs are the library's objects
    nb.cells.insert(0, nbformat.v4.new_code_cell(TYPE_TAGGER))
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    try:
        client.execute()
    except CellExecutionError as exc:
        pytest.fail(f"{path.name}: {ANSI.sub('', str(exc))}", pytrace=False)
    cells = [c for c in nb.cells[1:] if c.cell_type == "code"]
    outputs = [o for c in cells for o in c.get("outputs", [])]
    kinds = {k for o in outputs for k in o.get("data", {})}
    assert "text/html" in kinds, f"{path.name} shows no rich (HTML) display"
    if "plt." in path.read_text():
        assert "image/png" in kinds, f"{path.name} draws a figure but none is shown inline"
    assert not [o for o in outputs if o.output_type == "error"]
    # issue 23: "running the gallery shows a rich display for every object it produces": every
    # displayed object of the library (or container of them) carries HTML, an image or LaTeX
    plain = []
    for c in cells:
        for o in c.get("outputs", []):
            if o.output_type not in ("execute_result", "display_data"):
                continue
            data = o.get("data", {})
            tag = data.get(TYPE_MIME, "")
            rich = any(k == "text/html" or k == "text/latex" or k.startswith("image/") for k in data)
            if tag.startswith("cgtalg") and not rich:
                plain.append(f"{tag.split('|')[1]} from the cell {c.source.strip().splitlines()[-1]!r}: "
                             f"{data.get('text/plain', '')[:80]!r}")
    assert not plain, f"{path.name}: outputs with no rich display: {plain}"


#: the mime type of the tag TYPE_TAGGER adds to every displayed object
TYPE_MIME = "text/x-cgtalg-type"

#: executed first in each notebook's kernel: a display formatter that writes, beside every
#: displayed object's other forms, "cgtalg|Class" for an object of the library, "cgtalg|list of
#: Class" for a container holding one, "other|type" otherwise
TYPE_TAGGER = f"""
from IPython import get_ipython
from IPython.core.formatters import BaseFormatter
from traitlets import ObjectName, Unicode


def _cgtalg_type(obj):
    return type(obj).__module__.split(".")[0] == "cgtalg"


class _TypeTag(BaseFormatter):
    format_type = Unicode({TYPE_MIME!r})
    print_method = ObjectName("_repr_type_tag_")

    def __call__(self, obj):
        if _cgtalg_type(obj):
            return "cgtalg|" + type(obj).__qualname__
        items = list(obj.values()) if isinstance(obj, dict) else (
            list(obj)[:1000] if isinstance(obj, (list, tuple, set, frozenset)) else [])
        inner = [x for x in items if _cgtalg_type(x)]
        if inner:
            return f"cgtalg|{{type(obj).__name__}} of {{type(inner[0]).__qualname__}}"
        return "other|" + type(obj).__qualname__


_f = get_ipython().display_formatter
_f.formatters[{TYPE_MIME!r}] = _TypeTag(parent=_f)
"""
