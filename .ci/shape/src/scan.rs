//! What one source file holds, read with syn as the compiler reads it:
//! its functions with their lengths, the places a `Result<_, String>` is
//! written, and the thiserror types whose message is a lone String.

use proc_macro2::Span;
use syn::visit::{self, Visit};
use syn::{
    Attribute, Block, Fields, GenericArgument, ItemEnum, ItemFn, ItemImpl, ItemMacro, ItemMod,
    ItemStruct, ItemTrait, ItemType, LitStr, PathArguments, Signature, Type,
};

/// A function: its name qualified by the inline modules, the impl's type
/// or the trait around it (`tests::reads_a_board`, `Runtime::perform`),
/// and the lines of its `fn` token and its closing brace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    pub name: String,
    pub first: usize,
    pub last: usize,
}

impl Function {
    /// Lines from the `fn` token to the closing brace, both counted.
    pub fn lines(&self) -> usize {
        self.last - self.first + 1
    }
}

/// Where a `Result<_, String>` is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StringResult {
    /// The function, type alias or type (for a field) holding it.
    pub owner: String,
    /// "the signature of fn", "the type alias", "a field of", "the bounds of"
    pub place: &'static str,
    pub line: usize,
}

/// A thiserror type or variant whose whole message is its one String
/// field (`#[error("{0}")] X(String)`, or `transparent`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wrapper {
    /// `Enum::Variant`, or the struct's name.
    pub name: String,
    pub line: usize,
}

#[derive(Debug, Default)]
pub struct Findings {
    pub functions: Vec<Function>,
    pub string_results: Vec<StringResult>,
    pub wrappers: Vec<Wrapper>,
}

/// Everything `source` holds, or syn's reading error.
pub fn scan(source: &str) -> syn::Result<Findings> {
    let file = syn::parse_file(source)?;
    let mut scanner = Scanner::default();
    scanner.visit_file(&file);
    Ok(scanner.found)
}

#[derive(Default)]
struct Scanner {
    /// The inline modules, impl types, traits and functions we are inside.
    path: Vec<String>,
    found: Findings,
}

impl Scanner {
    fn qualified(&self, name: &str) -> String {
        let mut parts = self.path.clone();
        parts.push(name.to_owned());
        parts.join("::")
    }

    fn inside(&mut self, name: String, f: impl FnOnce(&mut Self)) {
        self.path.push(name);
        f(self);
        self.path.pop();
    }

    /// A function with a body: its length, the String errors of its
    /// signature, then what its body holds (functions inside functions).
    fn function(&mut self, sig: &Signature, block: &Block) {
        let name = self.qualified(&sig.ident.to_string());
        self.found.functions.push(Function {
            name: name.clone(),
            first: line(sig.fn_token.span),
            last: closing_line(block),
        });
        self.signature(&name, sig);
        self.inside(sig.ident.to_string(), |s| s.visit_block(block));
    }

    fn signature(&mut self, name: &str, sig: &Signature) {
        for line in string_results_in(|v| v.visit_signature(sig)) {
            self.found.string_results.push(StringResult {
                owner: name.to_owned(),
                place: "the signature of fn",
                line,
            });
        }
    }

    fn alias(&mut self, name: &str, ty: &Type) {
        for line in string_results_in(|v| v.visit_type(ty)) {
            self.found.string_results.push(StringResult {
                owner: self.qualified(name),
                place: "the type alias",
                line,
            });
        }
    }

    fn fields(&mut self, owner: &str, walk: impl FnOnce(&mut ResultFinder)) {
        for line in string_results_in(walk) {
            self.found.string_results.push(StringResult {
                owner: self.qualified(owner),
                place: "a field of",
                line,
            });
        }
    }

    /// The generic parameters and where clause of a type, trait or impl.
    fn bounds(&mut self, owner: &str, generics: &syn::Generics) {
        for line in string_results_in(|v| v.visit_generics(generics)) {
            self.found.string_results.push(StringResult {
                owner: self.qualified(owner),
                place: "the bounds of",
                line,
            });
        }
    }

    /// A macro's body read as items where it is items (`thread_local!`,
    /// a test macro's functions); any other body is not Rust items and is
    /// left alone.
    fn macro_items(&mut self, mac: &syn::Macro) {
        if let Ok(file) = mac.parse_body::<syn::File>() {
            for item in &file.items {
                self.visit_item(item);
            }
        }
    }
}

fn line(span: Span) -> usize {
    span.start().line
}

fn closing_line(block: &Block) -> usize {
    block.brace_token.span.close().end().line
}

impl<'ast> Visit<'ast> for Scanner {
    fn visit_item_fn(&mut self, f: &'ast ItemFn) {
        self.function(&f.sig, &f.block);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.function(&f.sig, &f.block);
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        match &f.default {
            Some(block) => self.function(&f.sig, block),
            None => {
                let name = self.qualified(&f.sig.ident.to_string());
                self.signature(&name, &f.sig);
            }
        }
    }

    fn visit_foreign_item_fn(&mut self, f: &'ast syn::ForeignItemFn) {
        let name = self.qualified(&f.sig.ident.to_string());
        self.signature(&name, &f.sig);
    }

    fn visit_item_impl(&mut self, i: &'ast ItemImpl) {
        let name = type_name(&i.self_ty);
        // The impl's bounds are its methods' signatures too.
        self.bounds(&name, &i.generics);
        self.inside(name, |s| visit::visit_item_impl(s, i));
    }

    fn visit_item_trait(&mut self, t: &'ast ItemTrait) {
        self.bounds(&t.ident.to_string(), &t.generics);
        self.inside(t.ident.to_string(), |s| visit::visit_item_trait(s, t));
    }

    fn visit_item_mod(&mut self, m: &'ast ItemMod) {
        self.inside(m.ident.to_string(), |s| visit::visit_item_mod(s, m));
    }

    fn visit_item_type(&mut self, t: &'ast ItemType) {
        self.alias(&t.ident.to_string(), &t.ty);
    }

    fn visit_impl_item_type(&mut self, t: &'ast syn::ImplItemType) {
        self.alias(&t.ident.to_string(), &t.ty);
    }

    fn visit_trait_item_type(&mut self, t: &'ast syn::TraitItemType) {
        if let Some((_, ty)) = &t.default {
            self.alias(&t.ident.to_string(), ty);
        }
    }

    fn visit_item_struct(&mut self, s: &'ast ItemStruct) {
        let name = s.ident.to_string();
        self.bounds(&name, &s.generics);
        self.fields(&name, |v| v.visit_fields(&s.fields));
        if is_wrapper(&s.attrs, &s.fields) {
            self.found.wrappers.push(Wrapper {
                name: self.qualified(&name),
                line: line(s.ident.span()),
            });
        }
    }

    fn visit_item_enum(&mut self, e: &'ast ItemEnum) {
        let name = e.ident.to_string();
        self.bounds(&name, &e.generics);
        for v in &e.variants {
            self.fields(&format!("{name}::{}", v.ident), |f| {
                f.visit_fields(&v.fields)
            });
            if is_wrapper(&v.attrs, &v.fields) {
                self.found.wrappers.push(Wrapper {
                    name: self.qualified(&format!("{name}::{}", v.ident)),
                    line: line(v.ident.span()),
                });
            }
        }
    }

    fn visit_item_union(&mut self, u: &'ast syn::ItemUnion) {
        self.fields(&u.ident.to_string(), |v| v.visit_fields_named(&u.fields));
    }

    fn visit_item_macro(&mut self, m: &'ast ItemMacro) {
        self.macro_items(&m.mac);
    }

    fn visit_stmt_macro(&mut self, m: &'ast syn::StmtMacro) {
        self.macro_items(&m.mac);
    }
}

/// The name an impl block's methods are qualified by: the last segment of
/// its type's path (`impl<T> Foo<T>`, `impl Trait for Foo` give `Foo`).
fn type_name(ty: &Type) -> String {
    match ty {
        Type::Path(p) => p
            .path
            .segments
            .last()
            .map_or_else(|| "impl".to_owned(), |s| s.ident.to_string()),
        Type::Reference(r) => type_name(&r.elem),
        _ => "impl".to_owned(),
    }
}

/// The lines of every `Result<_, String>` that `walk` visits.
fn string_results_in(walk: impl FnOnce(&mut ResultFinder)) -> Vec<usize> {
    let mut finder = ResultFinder::default();
    walk(&mut finder);
    finder.lines
}

#[derive(Default)]
struct ResultFinder {
    lines: Vec<usize>,
}

impl<'ast> Visit<'ast> for ResultFinder {
    fn visit_type_path(&mut self, t: &'ast syn::TypePath) {
        if let Some(last) = t.path.segments.last()
            && last.ident == "Result"
            && let PathArguments::AngleBracketed(args) = &last.arguments
            && let Some(GenericArgument::Type(error)) = args.args.iter().nth(1)
            && is_string(error)
        {
            self.lines.push(line(last.ident.span()));
        }
        visit::visit_type_path(self, t);
    }
}

/// `String`, by any path to it (`std::string::String`).
fn is_string(ty: &Type) -> bool {
    match ty {
        Type::Path(p) if p.qself.is_none() => p
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "String" && s.arguments.is_none()),
        Type::Paren(p) => is_string(&p.elem),
        Type::Group(g) => is_string(&g.elem),
        _ => false,
    }
}

/// Whether a thiserror type or variant with `attrs` and `fields` has one
/// String field that is its whole message: `#[error("{0}")]`,
/// `#[error("{name}")]` for its one named field, or `#[error(transparent)]`.
fn is_wrapper(attrs: &[Attribute], fields: &Fields) -> bool {
    let mut only = fields.iter();
    let (Some(field), None) = (only.next(), only.next()) else {
        return false;
    };
    if !is_string(&field.ty) {
        return false;
    }
    let whole = match &field.ident {
        Some(name) => format!("{{{name}}}"),
        None => "{0}".to_owned(),
    };
    attrs
        .iter()
        .filter(|a| a.path().is_ident("error"))
        .any(|a| {
            let message = a.parse_args::<LitStr>().map(|s| s.value());
            let transparent = a
                .parse_args::<syn::Ident>()
                .is_ok_and(|i| i == "transparent");
            transparent || message.is_ok_and(|m| m == whole)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A function of `body_lines` lines between its signature line and
    /// its closing brace's line.
    fn long_fn(signature: &str, body_lines: usize) -> String {
        let mut s = format!("{signature} {{\n");
        for i in 0..body_lines {
            s.push_str(&format!("    let _x{i} = {i};\n"));
        }
        s.push_str("}\n");
        s
    }

    #[test]
    fn a_function_is_measured_from_fn_to_its_closing_brace_whatever_its_signature_holds() {
        // The old line-pattern check stopped at the `;` of `[String; 2]`
        // and took the function for a declaration: this one is 151 lines.
        let source = long_fn(
            "/// doc\n#[inline]\npub(crate) fn write_game(out: &mut String, names: &[String; 2])",
            149,
        );
        let found = scan(&source).unwrap();
        assert_eq!(
            found.functions,
            vec![Function {
                name: "write_game".into(),
                first: 3,
                last: 153
            }]
        );
        assert_eq!(found.functions[0].lines(), 151);
    }

    #[test]
    fn a_signature_over_several_lines_braces_in_strings_and_comments_count_as_rust_reads_them() {
        let source = "impl<T> Holder<T> {\n    fn f(\n        a: [u8; 3],\n    ) -> &'static str {\n        // }\n        \"}{\"\n    }\n}\n\
                      trait T {\n    fn declared(&self);\n    fn default(&self) {\n        let _c = '}';\n    }\n}\n\
                      mod tests {\n    fn inner() {\n        fn nested() {}\n    }\n}\n";
        let found = scan(source).unwrap();
        let got: Vec<_> = found
            .functions
            .iter()
            .map(|f| (f.name.as_str(), f.first, f.lines()))
            .collect();
        assert_eq!(
            got,
            [
                ("Holder::f", 2, 6),
                ("T::default", 11, 3),
                ("tests::inner", 16, 3),
                ("tests::inner::nested", 17, 1),
            ]
        );
    }

    #[test]
    fn functions_inside_a_macro_of_items_are_measured() {
        let source = "thread_local! { static X: u8 = 0; }\nsome_macro! {\n    fn in_macro() {\n        let _a = 1;\n    }\n}\n";
        let found = scan(source).unwrap();
        assert_eq!(
            found.functions,
            vec![Function {
                name: "in_macro".into(),
                first: 3,
                last: 5
            }]
        );
    }

    #[test]
    fn a_string_error_is_found_by_any_path_in_a_signature_an_alias_or_a_field() {
        let source = "\
pub fn plain() -> Result<(), String> { Ok(()) }
fn pathed() -> std::result::Result<u8, std::string::String> { Ok(1) }
fn in_a_closure(f: impl Fn(&str) -> Result<u8, String>) {}
fn in_a_bound<P>(p: P) where P: FnMut() -> Vec<Result<u8, String>> {}
fn typed() -> Result<String, Error> { todo!() }
fn aliased() -> io::Result<String> { todo!() }
type Answer = Result<u8, String>;
enum Message { Done(u64, Result<u8, String>), Fine(Result<u8, Error>) }
struct Job { result: Option<Result<u8, String>> }
impl Job { fn method(&self) -> Result<(), String> { Ok(()) } }
impl<P> Batch<P> where P: FnMut(&str) -> Result<u8, String> {}
";
        let found = scan(source).unwrap();
        let got: Vec<_> = found
            .string_results
            .iter()
            .map(|r| (r.place, r.owner.as_str(), r.line))
            .collect();
        assert_eq!(
            got,
            [
                ("the signature of fn", "plain", 1),
                ("the signature of fn", "pathed", 2),
                ("the signature of fn", "in_a_closure", 3),
                ("the signature of fn", "in_a_bound", 4),
                ("the type alias", "Answer", 7),
                ("a field of", "Message::Done", 8),
                ("a field of", "Job", 9),
                ("the signature of fn", "Job::method", 10),
                ("the bounds of", "Batch", 11),
            ]
        );
    }

    #[test]
    fn a_lone_string_as_the_whole_message_is_a_wrapper() {
        let source = r#"
#[derive(Debug, thiserror::Error)]
pub enum E {
    #[error("{0}")]
    X(String),
    #[error(transparent)]
    Y(std::string::String),
    #[error("{message}")]
    Z { message: String },
    #[error("line {0}: {1}")]
    Typed(usize, String),
    #[error("engine: {0}")]
    Named(String),
    #[error("{0}")]
    Inner(#[from] std::io::Error),
}
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Refused(String);
"#;
        let found = scan(source).unwrap();
        let got: Vec<_> = found
            .wrappers
            .iter()
            .map(|w| (w.name.as_str(), w.line))
            .collect();
        assert_eq!(
            got,
            [("E::X", 5), ("E::Y", 7), ("E::Z", 9), ("Refused", 19)]
        );
    }
}
