//! Every integration test of matchbox, in one binary (one link for `cargo test`): a module a
//! subject, the helpers they share in `common`.

mod common;

mod address;
mod arimaa;
mod bout;
mod charts;
mod class;
mod cli;
mod counts;
mod curve;
mod docs;
mod engines;
mod exact;
mod files;
mod film;
mod fuzz;
mod history;
mod identity;
mod inputs;
mod keys;
mod labels;
mod layers;
mod learn;
mod lesson;
mod lesson_film;
mod memory;
mod menace;
mod meter;
mod odds;
mod properties;
mod reasons;
mod registry;
mod roundtrip;
mod rules;
mod safety;
mod screens;
mod shapes;
mod shard;
mod solve;
mod store;
mod taps;
mod tui;
mod watch_play;
mod whole;
mod writers;
