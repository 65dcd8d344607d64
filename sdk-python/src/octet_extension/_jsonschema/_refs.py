"""Schema resources: base URIs, `$id`, `$anchor`/`$dynamicAnchor`, and resolving `$ref`.

Only subschema positions are scanned (an `$id` inside `const`, `enum` or an unknown keyword is
plain data). Documents other than the root come from `resources` (a URI -> document map the
caller gives, e.g. the test suite's remotes) or the bundled 2020-12 meta-schemas; nothing is
ever fetched.
"""

from __future__ import annotations

import json
import re

from .._typecheck import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
VOCAB_VALIDATION = "https://json-schema.org/draft/2020-12/vocab/validation"
_META_PREFIX = "https://json-schema.org/draft/2020-12/"

SINGLE = ("additionalProperties", "unevaluatedProperties", "propertyNames", "items",
          "unevaluatedItems", "contains", "not", "if", "then", "else", "contentSchema")
MAPS = ("properties", "patternProperties", "$defs", "dependentSchemas")
LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
# Patterns as source text, matched through re's cache of compiled patterns: a schema without
# $id or $ref never needs them, and compiling them at import cost every start ~2 M instructions.
_SCHEME = r"^[A-Za-z][A-Za-z0-9+.-]*:"
# RFC 3986 appendix B. Not urllib.parse: it imports ipaddress, milliseconds of every start.
_URI = r"^(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$"
_PERCENT = r"%([0-9A-Fa-f]{2})"


def urlsplit(uri: str) -> tuple[str, str | None, str, str, str]:
    """(scheme, authority or None when there is none, path, query, fragment)."""
    m = re.match(_URI, uri, re.S)
    assert m is not None  # every string matches
    scheme, netloc, path, query, fragment = m.groups()
    return scheme or "", netloc, path, query or "", fragment or ""


def urlunsplit(parts: tuple[str, str | None, str, str, str]) -> str:
    scheme, netloc, path, query, fragment = parts
    out = f"{scheme}:" if scheme else ""
    if netloc is not None:
        out += "//" + netloc
    out += path
    if query:
        out += "?" + query
    if fragment:
        out += "#" + fragment
    return out


def unquote(text: str) -> str:
    """Percent-decoding (UTF-8), for pointer fragments such as #/$defs/a%25b."""
    if "%" not in text:
        return text
    out = bytearray()
    i = 0
    for m in re.finditer(_PERCENT, text):
        out += text[i:m.start()].encode("utf-8")
        out.append(int(m.group(1), 16))
        i = m.end()
    out += text[i:].encode("utf-8")
    return out.decode("utf-8", "replace")


class RefError(ValueError):
    """A reference that cannot be resolved (unknown URI, anchor or pointer)."""


class Resource:
    """One schema resource: a document root or a subschema with its own `$id`."""

    __slots__ = ("anchors", "dynamic_anchors", "root", "uri", "validation")

    def __init__(self, uri: str, root: Any) -> None:
        self.uri = uri
        self.root = root
        self.anchors: dict[str, Any] = {}
        self.dynamic_anchors: dict[str, Any] = {}
        self.validation = True  # False when its meta-schema leaves out the validation vocab


class Place:
    """Where a schema node sits: its base URI's resource and its pointer for messages."""

    __slots__ = ("document", "pointer", "resource")

    def __init__(self, resource: Resource, pointer: str, document: str) -> None:
        self.resource = resource
        self.pointer = pointer
        self.document = document  # "" for the root document, else its URI


def resolve_uri(base: str, ref: str) -> str:
    """RFC 3986 reference resolution, for any scheme (urn: and tag: included)."""
    if re.match(_SCHEME, ref):
        return ref
    scheme, netloc, path, query, _ = urlsplit(base)
    _, r_netloc, r_path, r_query, r_fragment = urlsplit(ref)
    if ref.startswith("#"):
        return urlunsplit((scheme, netloc, path, query, r_fragment))
    if ref.startswith("//"):
        return urlunsplit((scheme, r_netloc, _dots(r_path), r_query, r_fragment))
    if not r_path:
        return urlunsplit((scheme, netloc, path, r_query or query, r_fragment))
    if r_path.startswith("/"):
        merged = r_path
    elif netloc and not path:
        merged = "/" + r_path
    else:
        merged = path[:path.rfind("/") + 1] + r_path
    return urlunsplit((scheme, netloc, _dots(merged), r_query, r_fragment))


def _dots(path: str) -> str:
    out: list[str] = []
    for seg in path.split("/"):
        if seg == "..":
            if len(out) > 1:
                out.pop()
        elif seg != ".":
            out.append(seg)
    if path.endswith(("/.", "/..")):
        out.append("")
    return "/".join(out)


def split_fragment(uri: str) -> tuple[str, str]:
    base, _, frag = uri.partition("#")
    return base, unquote(frag)


class Registry:
    """Every resource seen so far, and where each schema node (a dict) sits."""

    def __init__(self, documents: dict[str, Any] | None) -> None:
        self.documents = dict(documents or {})
        self.resources: dict[str, Resource] = {}
        self.places: dict[int, Place] = {}
        self._keep: list[Any] = []  # documents referenced by id() in places stay alive
        self.has_dynamic_ref = False

    def add(self, uri: str, document: Any, label: str | None = None) -> Resource:
        """Scan a document whose retrieval URI is uri; return its root resource. label names
        the document in messages (the root document: "")."""
        self._keep.append(document)
        root = Resource(uri, document)
        self.resources[uri] = root
        self._scan(document, root, "", uri if label is None else label)
        return root

    def place(self, node: Any) -> Place | None:
        return self.places.get(id(node))

    def scan_at(self, node: Any, parent: Place, pointer: str) -> None:
        """Register a schema found where the scan did not look (reached by a pointer)."""
        self._scan(node, parent.resource, parent.pointer + pointer, parent.document)

    def _scan(self, node: Any, resource: Resource, pointer: str, doc: str) -> None:
        if type(node) is not dict:
            return
        sid = node.get("$id")
        if type(sid) is str:
            uri, _ = split_fragment(resolve_uri(resource.uri, sid))
            if node is resource.root:  # a document's own $id: its base, and a second name
                resource.uri = uri
                self.resources.setdefault(uri, resource)
            else:
                resource = Resource(uri, node)
                self.resources.setdefault(uri, resource)
        if node is resource.root:
            self._vocabulary(resource)
        self.places.setdefault(id(node), Place(resource, pointer, doc))
        anchor = node.get("$anchor")
        if type(anchor) is str:
            resource.anchors.setdefault(anchor, node)
        dynamic = node.get("$dynamicAnchor")
        if type(dynamic) is str:
            resource.anchors.setdefault(dynamic, node)
            resource.dynamic_anchors.setdefault(dynamic, node)
        if "$dynamicRef" in node:
            self.has_dynamic_ref = True
        for key in SINGLE:
            if key in node:
                self._scan(node[key], resource, f"{pointer}/{key}", doc)
        for key in MAPS:
            sub = node.get(key)
            if type(sub) is dict:
                for name, child in sub.items():
                    self._scan(child, resource, f"{pointer}/{key}/{_escape(name)}", doc)
        for key in LISTS:
            sub = node.get(key)
            if type(sub) is list:
                for index, child in enumerate(sub):
                    self._scan(child, resource, f"{pointer}/{key}/{index}", doc)

    def _vocabulary(self, resource: Resource) -> None:
        meta = resource.root.get("$schema") if type(resource.root) is dict else None
        if type(meta) is not str or meta == DRAFT_2020_12 or meta == DRAFT_2020_12 + "#":
            return
        doc = self.documents.get(split_fragment(meta)[0])
        if type(doc) is dict and type(doc.get("$vocabulary")) is dict:
            resource.validation = VOCAB_VALIDATION in doc["$vocabulary"]

    def resource(self, uri: str) -> Resource:
        found = self.resources.get(uri)
        if found is not None:
            return found
        doc = self.documents.get(uri)
        if doc is None and uri.startswith(_META_PREFIX):
            doc = _metaschemas().get(uri)
        if doc is None:
            raise RefError(f"unknown URI {uri!r} (schemas are never fetched; only the "
                           "document itself and the 2020-12 meta-schemas are known)")
        return self.add(uri, doc)

    def resolve(self, base: str, ref: str) -> Any:
        """The schema node a reference names, relative to base."""
        uri, frag = split_fragment(resolve_uri(base, ref))
        resource = self.resource(uri)
        if frag == "":
            return resource.root
        if frag.startswith("/"):
            return self._follow(resource, frag)
        node = resource.anchors.get(frag)
        if node is None:
            raise RefError(f"no anchor {frag!r} in {uri!r}")
        return node

    def _follow(self, resource: Resource, frag: str) -> Any:
        node = resource.root
        place = self.places.get(id(node))
        path = place.pointer if place is not None else ""
        doc = place.document if place is not None else resource.uri
        for raw in frag[1:].split("/"):
            token = raw.replace("~1", "/").replace("~0", "~")
            if type(node) is dict and token in node:
                node = node[token]
            elif type(node) is list and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                raise RefError(f"no {frag!r} in {resource.uri!r}")
            path += "/" + _escape(token)
        if type(node) is dict and id(node) not in self.places:
            self._scan(node, resource, path, doc)  # a schema in a non-schema position
        return node


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


_META: dict[str, Any] = {}


def _metaschemas() -> dict[str, Any]:
    if not _META:
        # Imported here: importlib.resources pulls in typing, a cost of every start.
        from importlib import resources as _package_files

        text = (_package_files.files(__package__) / "metaschema-2020-12.json").read_text("utf-8")
        _META.update(json.loads(text))
    return _META
