/work/main/.ci/shape/target/release/bgedit-shape: /work/main/.ci/shape/src/main.rs /work/main/.ci/shape/src/scan.rs
