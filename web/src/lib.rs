//! matchbox in a browser page.
