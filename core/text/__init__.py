"""Small text helpers shared by every engine: Chinese numerals (:mod:`core.text.numerals`) and
character-width folding (:mod:`core.text.width`).

A leaf package: it imports nothing else from ``core``, so documents, retrieval and both agents
can use it without tying themselves together."""
