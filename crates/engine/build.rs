//! Builds Open Sage's C++ core (vendor/bgsage, MPL-2.0) and bgedit's C shim
//! over it (src/sage/native/shim.cpp) into the binary, as rusqlite
//! builds SQLite: `--engine sage` then runs in-process (see
//! src/sage/native/). Only the sources the shim needs are compiled,
//! at -O3 even in debug builds (the tests call the network thousands of
//! times, and a debug build of it is ten times slower).
//!
//! Flags as Sage's own CMake build has them (cpp/CMakeLists_cpu.txt) so the
//! numbers are Sage's: GNU C++17 (which lets the compiler fuse multiply-adds,
//! as Sage's build does), and on x86-64 AVX2 and FMA, which the network's
//! code needs. Sage's -ffast-math is left out: the answers equal its
//! Python's within 1e-5 without it (tests/sage_native.rs). A CPU without
//! AVX2 or FMA never calls this code: bgedit checks at run time and uses the
//! Python bridge there. Without a C++ compiler the build goes on without the
//! core (a warning says so), and Sage answers through its Python.

const SOURCES: [&str; 12] = [
    "board",
    "moves",
    "strategy",
    "pubeval",
    "encoding",
    "neural_net",
    "multipy",
    "cube",
    "cube_eval",
    "match_equity",
    "bearoff",
    "rollout",
];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(bgedit_sage_core)");
    let vendor = std::path::Path::new("../../vendor/bgsage/cpp");
    let shim = "src/sage/native/shim.cpp";
    println!("cargo:rerun-if-changed={shim}");
    println!("cargo:rerun-if-changed=../../vendor/bgsage/cpp");
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("gnu++17")
        .opt_level(3)
        .debug(false)
        .warnings(false)
        .include(vendor.join("include"))
        .flag_if_supported("-funroll-loops")
        .file(shim);
    for s in SOURCES {
        build.file(vendor.join("src").join(format!("{s}.cpp")));
    }
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64") {
        build.flag("-mavx2").flag("-mfma");
    }
    // The fuzz targets' way into Sage's loaders (shim.cpp's probes), with
    // the `internals` feature only.
    if std::env::var_os("CARGO_FEATURE_INTERNALS").is_some() {
        build.define("BGEDIT_SAGE_PROBES", None);
    }
    // Under cargo-fuzz (-Zsanitizer=address) the C++ is built with
    // AddressSanitizer too, so that a read past a buffer in Sage's code is
    // caught where it happens, not only when it faults; rustc links the
    // sanitizer's runtime.
    println!("cargo:rerun-if-env-changed=CARGO_CFG_SANITIZE");
    let sanitized = std::env::var("CARGO_CFG_SANITIZE").unwrap_or_default();
    if sanitized.split(',').any(|s| s == "address") {
        build
            .flag("-fsanitize=address")
            .flag("-fno-omit-frame-pointer");
    }
    match build.try_compile("bgsage") {
        Ok(()) => println!("cargo::rustc-cfg=bgedit_sage_core"),
        Err(e) => println!(
            "cargo::warning=Open Sage's core is not built into bgedit ({e}); \
             Sage will answer through its Python. Install g++ or clang++ to build it in."
        ),
    }
}
