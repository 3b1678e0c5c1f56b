"""Loading BattleScribe files and walking their XML without caring about namespaces.

BattleScribe writes ``.gst`` (game system) and ``.cat`` (catalogue) XML files, and zipped ``.gstz`` /
``.catz`` variants holding one XML file.  Files may come from uploads, so loading refuses DTDs (the
only way to declare entities) and caps the unzipped size.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree as ET

from armies.importers.types import CatalogueFormatError

BATTLESCRIBE_NAMESPACE_PREFIX = "http://www.battlescribe.net/schema/"
ROOT_KINDS = ("gameSystem", "catalogue")
MAX_XML_BYTES = 64 * 1024 * 1024  # the largest real catalogue is under 1 MiB
ZIP_MAGIC = b"PK\x03\x04"
XML_SUFFIXES = (".gst", ".cat", ".xml")

# Elements other entries can point at with targetId; constraints and links reuse ids, so they are left out.
LINK_TARGET_TAGS = frozenset(
    {
        "selectionEntry",
        "selectionEntryGroup",
        "profile",
        "rule",
        "categoryEntry",
        "forceEntry",
        "profileType",
        "characteristicType",
        "costType",
    }
)


def local(tag: str) -> str:
    """The tag without its ``{namespace}``."""
    return tag.rsplit("}", 1)[-1]


def kids(element: ET.Element, container: str, tag: str | None = None) -> list[ET.Element]:
    """Children of ``element``'s ``<container>`` child(ren), optionally only those named ``tag``."""
    found: list[ET.Element] = []
    for holder in element:
        if local(holder.tag) != container:
            continue
        found.extend(child for child in holder if tag is None or local(child.tag) == tag)
    return found


@dataclass
class BsDocument:
    """One parsed BattleScribe file."""

    source: str
    kind: str
    root: ET.Element
    id: str
    name: str
    revision: int
    game_system_id: str | None
    namespace: str

    @property
    def is_game_system(self) -> bool:
        return self.kind == "gameSystem"


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise CatalogueFormatError(path.name, f"cannot read the file ({error.strerror or error})") from error


def _unzip(source: str, data: bytes) -> bytes:
    """The one XML file inside a .gstz/.catz archive."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [info for info in archive.infolist() if not info.is_dir()]
            if len(members) > 1:
                members = [info for info in members if info.filename.lower().endswith(XML_SUFFIXES)]
            if len(members) != 1:
                raise CatalogueFormatError(source, "a zipped catalogue must hold exactly one XML file")
            member = members[0]
            if member.file_size > MAX_XML_BYTES:
                raise CatalogueFormatError(source, f"the zipped file is larger than {MAX_XML_BYTES} bytes")
            with archive.open(member) as handle:
                # Read one byte past the limit: file_size in the header can lie.
                content = handle.read(MAX_XML_BYTES + 1)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError, ValueError) as error:
        raise CatalogueFormatError(source, f"corrupt zip archive ({error})") from error
    if len(content) > MAX_XML_BYTES:
        raise CatalogueFormatError(source, f"the zipped file is larger than {MAX_XML_BYTES} bytes")
    return content


def _parse_xml(source: str, data: bytes) -> ET.Element:
    if not data.strip():
        raise CatalogueFormatError(source, "the file is empty")
    if len(data) > MAX_XML_BYTES:
        raise CatalogueFormatError(source, f"the file is larger than {MAX_XML_BYTES} bytes")
    try:
        return safe_xml(data)
    except XmlRefusedError as error:
        raise CatalogueFormatError(source, str(error)) from error


class XmlRefusedError(ValueError):
    """XML the site will not read: a DTD or entity, another encoding than UTF-8, or not well-formed."""


def safe_xml(data: bytes) -> ET.Element:
    """Parse uploaded XML: the one reader for catalogues and rosters.

    BattleScribe never writes a DTD; refusing one rules out entity expansion attacks on uploads.
    UTF-16 is refused too, since the declarations could hide from the byte search in it.
    """
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in data[:200]:
        raise XmlRefusedError("the file is not UTF-8 XML")
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise XmlRefusedError("DTD and entity declarations are not allowed")
    try:
        return ET.fromstring(data)  # noqa: S314 - DTDs are refused above, expat >= 2.4 caps amplification
    except ET.ParseError as error:
        raise XmlRefusedError(f"not well-formed XML ({error})") from error


def _revision(source: str, root: ET.Element) -> int:
    raw = root.get("revision", "0")
    try:
        return int(raw)
    except ValueError as error:
        raise CatalogueFormatError(source, f"revision {raw!r} is not a whole number") from error


def parse_document(source: str, data: bytes) -> BsDocument:
    """Parse the bytes of a .gst/.cat file, or of a zip holding one."""
    if data.startswith(ZIP_MAGIC):
        data = _unzip(source, data)
    root = _parse_xml(source, data)
    kind = local(root.tag)
    if kind not in ROOT_KINDS:
        raise CatalogueFormatError(
            source,
            f"root element is <{kind}>, expected <gameSystem> or <catalogue> (not a BattleScribe file)",
        )
    namespace = root.tag[1:].split("}", 1)[0] if root.tag.startswith("{") else ""
    if not root.get("id"):
        raise CatalogueFormatError(source, f"<{kind}> has no id attribute")
    return BsDocument(
        source=source,
        kind=kind,
        root=root,
        id=root.get("id", ""),
        name=(root.get("name") or "").strip() or Path(source).stem,
        revision=_revision(source, root),
        game_system_id=root.get("gameSystemId"),
        namespace=namespace,
    )


def load_document(path: Path) -> BsDocument:
    return parse_document(path.name, _read_bytes(path))


@dataclass
class Target:
    element: ET.Element
    document: BsDocument


@dataclass
class LinkIndex:
    """Resolves ``targetId`` across a game system and its catalogues.

    A link is looked up in its own file first, then in the game system, then in the other catalogues,
    the order BattleScribe itself uses for shared entries and catalogue links.
    """

    documents: list[BsDocument]
    _by_document: dict[str, dict[str, ET.Element]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for document in self.documents:
            ids: dict[str, ET.Element] = {}
            for element in document.root.iter():
                target_id = element.get("id")
                if target_id and local(element.tag) in LINK_TARGET_TAGS:
                    ids.setdefault(target_id, element)
            self._by_document[document.source] = ids

    def _search_order(self, origin: BsDocument) -> Iterator[BsDocument]:
        yield origin
        yield from (
            document for document in self.documents if document.is_game_system and document is not origin
        )
        yield from (
            document for document in self.documents if not document.is_game_system and document is not origin
        )

    def resolve(self, origin: BsDocument, target_id: str | None) -> Target | None:
        if not target_id:
            return None
        for document in self._search_order(origin):
            element = self._by_document.get(document.source, {}).get(target_id)
            if element is not None:
                return Target(element, document)
        return None

    def names(self, tag: str) -> dict[str, str]:
        """id -> name for every element of one kind (category entries, profile types...)."""
        found: dict[str, str] = {}
        for document in self.documents:
            for target_id, element in self._by_document[document.source].items():
                if local(element.tag) == tag:
                    found.setdefault(target_id, (element.get("name") or "").strip())
        return found
