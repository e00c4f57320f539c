//! What the front ends share above the games, with no terminal, file or thread: the browser
//! page's address and the match it asks for.

pub mod address;
