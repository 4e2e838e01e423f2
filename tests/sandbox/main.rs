//! The sandbox over real HTTP on loopback: driven by appdeck's client, under abuse, and against
//! an OpenAPI model of the spec (`sandbox_model`, a seeded property run).

#[path = "../common/mod.rs"]
mod common;

mod hardening;
mod sandbox;
mod sandbox_model;
