fn main() {
    std::process::exit(matchbox::cli::main());
}
