// Mustache: a generic template engine (a Mustache subset) whose templates are checked when loaded,
// failing with the file, line and tag of a broken one. It imports nothing but the standard library.
