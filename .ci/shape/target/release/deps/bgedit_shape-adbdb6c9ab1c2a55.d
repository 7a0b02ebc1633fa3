/work/main/.ci/shape/target/release/deps/bgedit_shape-adbdb6c9ab1c2a55.d: src/main.rs src/scan.rs

/work/main/.ci/shape/target/release/deps/bgedit_shape-adbdb6c9ab1c2a55: src/main.rs src/scan.rs

src/main.rs:
src/scan.rs:
