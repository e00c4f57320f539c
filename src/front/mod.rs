//! What the front ends share above the games, with no terminal, file or thread: the browser
//! page's address and the match it asks for, and the teacher's files.

pub mod address;
pub mod files;
