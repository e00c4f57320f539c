fn main() {
    // A closed pipe (`matchbox solve tictactoe | head -1`) ends the program quietly, as it does
    // every Unix tool, instead of a panic on the next print: restore the default SIGPIPE action,
    // which the Rust runtime sets to "ignore".
    #[cfg(unix)]
    #[allow(unsafe_code)]
    // SAFETY: called first thing in `main`, before any other thread exists; SIG_DFL is a valid
    // handler for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(matchbox::cli::main());
}
