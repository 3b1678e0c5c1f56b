"""What the page walks count as one page: the shape of a page (``tests/demo_pages.py``)."""

from __future__ import annotations

from tests.demo_pages import Page, page_shape


def _table(*rows: tuple[int, str, str], cls: str = "badge") -> str:
    cells = [
        f'<tr><td><a href="/battles/{pk}/">{name}</a></td><td class="{cls}">{status}</td></tr>'
        for pk, name, status in rows
    ]
    return f'<main><table class="table">{"".join(cells)}</table></main>'


def test_it_gives_pages_alike_but_for_their_text_addresses_and_rows_one_shape():
    one = _table((1, "Anna attacks Ivan", "Reported"))
    three = _table((2, "Tom attacks Karl", "Confirmed"), (3, "Mila attacks Otto", "Disputed"), (4, "A", "B"))

    assert page_shape(one) == page_shape(three)


def test_it_tells_pages_apart_by_their_classes_names_and_empty_elements():
    page = _table((1, "Anna attacks Ivan", "Reported"))

    assert page_shape(page) != page_shape(
        _table((1, "Anna attacks Ivan", "Reported"), cls="badge badge-warn")
    )
    assert page_shape(page) != page_shape(_table((1, "", "Reported")))  # a link with no text: no name
    assert page_shape(page) != page_shape(page.replace("<a ", '<a aria-label="" '))
    assert page_shape(page) != page_shape(page.replace("<table ", '<div role="region" tabindex="0"><table '))


def test_it_reads_past_a_stray_end_tag_and_knows_a_whole_page_from_a_fragment():
    page = "<main><p>One</p></span><p>Two</p></main>"

    assert page_shape(page) == page_shape("<main><p>One</p><p>Two</p></main>")
    assert Page("/", "/", "core:home", '<!doctype html><html lang="en"><body></body></html>').is_document
    assert not Page("/bell/", "/bell/", "notifications:bell", "<span>3</span>").is_document
