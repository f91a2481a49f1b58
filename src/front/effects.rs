//! Syntactic side-effect analysis, used to reject C whose result depends on an unspecified
//! evaluation order (C11 6.5p2: unsequenced side effects, and indeterminately sequenced calls).
//!
//! The analysis is by name and over-approximates: a function's effects are the globals it or
//! its callees may read or write, whether or not a local of the same name shadows them. Its only
//! use is to reject, so over-approximation can reject a correct program (with a message saying
//! why) but never accept an ambiguous one.
//!
//! Memory reached through a pointer (`*p`, `p->f`, `p[i]` for a name declared as a pointer
//! anywhere) is the name [`THROUGH_POINTER`], which conflicts with every name: the analysis does
//! not know what a pointer points to.

use crate::util::{HashMap, HashSet};

use lang_c::ast::{
    BinaryOperator, BlockItem, Declaration, Expression, ForInitializer, FunctionDefinition, Initializer, Label,
    Statement, UnaryOperator,
};
use lang_c::span::Node;

use crate::front::function_name;

/// The name standing for any object reached through a pointer.
pub const THROUGH_POINTER: &str = "*";

/// What evaluating an expression may do.
#[derive(Clone, Debug, Default)]
pub struct Effects {
    /// Variable names it may read.
    pub reads: HashSet<String>,
    /// Variable names it may write.
    pub writes: HashSet<String>,
    /// Whether it may perform an event or call a defined function (whose order is observable).
    pub observable: bool,
    /// Whether it has any side effect at all (including reading input).
    pub any: bool,
}

impl Effects {
    /// Why `self` and `other` cannot be evaluated in an unspecified order, if they cannot.
    pub fn conflict(&self, other: &Effects) -> Option<String> {
        if self.observable && other.observable {
            return Some("both operands perform events or call functions".into());
        }
        for (a, b) in [(self, other), (other, self)] {
            let b_touches_memory = b.reads.contains(THROUGH_POINTER) || b.writes.contains(THROUGH_POINTER);
            let b_touches_any = !b.reads.is_empty() || !b.writes.is_empty();
            if let Some(v) = a.writes.iter().find(|v| {
                b.reads.contains(*v)
                    || b.writes.contains(*v)
                    || b_touches_memory
                    || (v.as_str() == THROUGH_POINTER && b_touches_any)
            }) {
                if v == THROUGH_POINTER {
                    return Some("one operand writes through a pointer while another reads or writes memory".into());
                }
                if !b.reads.contains(v) && !b.writes.contains(v) {
                    return Some(format!("one operand writes `{v}` while another reads or writes through a pointer"));
                }
                return Some(format!("one operand writes `{v}` while another reads or writes it"));
            }
        }
        None
    }
}

/// Per-function global reads and writes, closed under calls.
#[derive(Default)]
pub struct Summaries {
    map: HashMap<String, (HashSet<String>, HashSet<String>)>,
    /// Names declared anywhere with a pointer type (or as an array parameter).
    pointers: HashSet<String>,
}

impl Summaries {
    /// Computes summaries for `defs`, keeping only names in `globals`.
    pub fn new<'a>(
        defs: impl Iterator<Item = &'a FunctionDefinition>,
        globals: &HashSet<String>,
        pointers: HashSet<String>,
    ) -> Summaries {
        let mut direct: HashMap<String, (Effects, HashSet<String>)> = HashMap::default();
        let with_pointers = Summaries { map: HashMap::default(), pointers };
        for f in defs {
            let Some(name) = function_name(f) else { continue };
            let mut w =
                Walker { summaries: Some(&with_pointers), effects: Effects::default(), calls: HashSet::default() };
            w.stmt(&f.statement);
            direct.insert(name.to_string(), (w.effects, w.calls));
        }
        let pointers = with_pointers.pointers;
        let mut map: HashMap<String, (HashSet<String>, HashSet<String>)> = direct
            .iter()
            .map(|(n, (e, _))| {
                let keep = |s: &HashSet<String>| {
                    s.iter().filter(|v| globals.contains(*v) || v.as_str() == THROUGH_POINTER).cloned().collect()
                };
                (n.clone(), (keep(&e.reads), keep(&e.writes)))
            })
            .collect();
        // Close under calls; the sets only grow and are bounded by `globals`.
        loop {
            let mut changed = false;
            for (name, (_, calls)) in &direct {
                for callee in calls {
                    let Some((r, w)) = map.get(callee).cloned() else { continue };
                    let entry = map.get_mut(name).expect("every function has a summary");
                    let before = entry.0.len() + entry.1.len();
                    entry.0.extend(r);
                    entry.1.extend(w);
                    changed |= entry.0.len() + entry.1.len() != before;
                }
            }
            if !changed {
                break;
            }
        }
        Summaries { map, pointers }
    }

    /// Whether `name` is declared somewhere with a pointer type.
    pub fn is_pointer(&self, name: &str) -> bool {
        self.pointers.contains(name)
    }

    /// The effects of one expression.
    pub fn of_expr(&self, e: &Node<Expression>) -> Effects {
        let mut w = Walker { summaries: Some(self), effects: Effects::default(), calls: HashSet::default() };
        w.expr(e);
        w.effects
    }
}

/// The names of all functions called in `defs`.
pub fn called_functions<'a>(defs: impl Iterator<Item = &'a FunctionDefinition>) -> HashSet<String> {
    let mut all = HashSet::default();
    for f in defs {
        let mut w = Walker { summaries: None, effects: Effects::default(), calls: HashSet::default() };
        w.stmt(&f.statement);
        all.extend(w.calls);
    }
    all
}

struct Walker<'s> {
    summaries: Option<&'s Summaries>,
    effects: Effects,
    calls: HashSet<String>,
}

impl Walker<'_> {
    fn is_pointer(&self, name: &str) -> bool {
        self.summaries.is_some_and(|s| s.pointers.contains(name))
    }

    /// The variables an assignment target may name: `x`, the array of `a[i]`, the struct of
    /// `s.f`, or [`THROUGH_POINTER`].
    fn target_names(&self, e: &Node<Expression>) -> Vec<String> {
        match &e.node {
            Expression::Identifier(id) => vec![id.node.name.clone()],
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let mut names = self.target_names(&b.node.lhs);
                if names.iter().any(|n| self.is_pointer(n)) || !matches!(b.node.lhs.node, Expression::Identifier(_)) {
                    names.push(THROUGH_POINTER.into());
                }
                names
            }
            Expression::Member(m) if m.node.operator.node == lang_c::ast::MemberOperator::Direct => {
                self.target_names(&m.node.expression)
            }
            _ => vec![THROUGH_POINTER.into()],
        }
    }

    fn write_target(&mut self, e: &Node<Expression>) {
        for n in self.target_names(e) {
            self.effects.writes.insert(n);
        }
        self.effects.any = true;
        self.expr(e);
    }

    fn expr(&mut self, e: &Node<Expression>) {
        match &e.node {
            Expression::Identifier(id) => {
                self.effects.reads.insert(id.node.name.clone());
            }
            Expression::Member(m) => {
                if m.node.operator.node == lang_c::ast::MemberOperator::Indirect {
                    self.effects.reads.insert(THROUGH_POINTER.into());
                }
                self.expr(&m.node.expression);
            }
            Expression::Call(c) => {
                self.effects.any = true;
                if let Expression::Identifier(id) = &c.node.callee.node {
                    let name = &id.node.name;
                    self.calls.insert(name.clone());
                    // A nondet function the sources define is an ordinary call (`lower::calls`).
                    let is_input = crate::front::nondet_type(name, crate::front::DataModel::Lp64).is_some()
                        && !self.summaries.is_some_and(|s| s.map.contains_key(name));
                    if !is_input {
                        self.effects.observable = true;
                    }
                    if let Some((r, w)) = self.summaries.and_then(|s| s.map.get(name)) {
                        self.effects.reads.extend(r.iter().cloned());
                        self.effects.writes.extend(w.iter().cloned());
                    }
                } else {
                    self.effects.observable = true;
                    self.expr(&c.node.callee);
                }
                for a in &c.node.arguments {
                    self.expr(a);
                }
            }
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::PostIncrement
                | UnaryOperator::PostDecrement
                | UnaryOperator::PreIncrement
                | UnaryOperator::PreDecrement => self.write_target(&u.node.operand),
                UnaryOperator::Indirection => {
                    self.effects.reads.insert(THROUGH_POINTER.into());
                    self.expr(&u.node.operand)
                }
                _ => self.expr(&u.node.operand),
            },
            Expression::BinaryOperator(b) => {
                use BinaryOperator::*;
                match b.node.operator.node {
                    Assign => {
                        // A plain assignment does not read its target, but does read its indices
                        // and the pointers it writes through.
                        for n in self.target_names(&b.node.lhs) {
                            self.effects.writes.insert(n);
                        }
                        self.effects.any = true;
                        match &b.node.lhs.node {
                            Expression::Identifier(_) => {}
                            Expression::BinaryOperator(ix) if ix.node.operator.node == Index => {
                                if !matches!(ix.node.lhs.node, Expression::Identifier(_)) {
                                    self.expr(&ix.node.lhs);
                                }
                                self.expr(&ix.node.rhs);
                            }
                            _ => self.expr(&b.node.lhs),
                        }
                        self.expr(&b.node.rhs);
                    }
                    AssignMultiply | AssignDivide | AssignModulo | AssignPlus | AssignMinus | AssignShiftLeft
                    | AssignShiftRight | AssignBitwiseAnd | AssignBitwiseXor | AssignBitwiseOr => {
                        self.write_target(&b.node.lhs);
                        self.expr(&b.node.rhs);
                    }
                    Index => {
                        if let Expression::Identifier(id) = &b.node.lhs.node
                            && self.is_pointer(&id.node.name)
                        {
                            self.effects.reads.insert(THROUGH_POINTER.into());
                        }
                        self.expr(&b.node.lhs);
                        self.expr(&b.node.rhs);
                    }
                    _ => {
                        self.expr(&b.node.lhs);
                        self.expr(&b.node.rhs);
                    }
                }
            }
            Expression::Cast(c) => self.expr(&c.node.expression),
            Expression::Conditional(c) => {
                self.expr(&c.node.condition);
                self.expr(&c.node.then_expression);
                self.expr(&c.node.else_expression);
            }
            Expression::Comma(items) => items.iter().for_each(|i| self.expr(i)),
            Expression::Statement(s) => {
                self.effects.any = true;
                self.effects.observable = true;
                self.stmt(s);
            }
            // sizeof does not evaluate its operand; the rest is rejected when lowered.
            _ => {}
        }
    }

    fn declaration(&mut self, d: &Node<Declaration>) {
        for decl in &d.node.declarators {
            if let Some(init) = &decl.node.initializer {
                self.initializer(init);
            }
        }
    }

    fn initializer(&mut self, i: &Node<Initializer>) {
        match &i.node {
            Initializer::Expression(e) => self.expr(e),
            Initializer::List(items) => items.iter().for_each(|it| self.initializer(&it.node.initializer)),
        }
    }

    fn stmt(&mut self, s: &Node<Statement>) {
        match &s.node {
            Statement::Labeled(l) => {
                if let Label::Case(e) = &l.node.label.node {
                    self.expr(e);
                }
                self.stmt(&l.node.statement);
            }
            Statement::Compound(items) => {
                for it in items {
                    match &it.node {
                        BlockItem::Declaration(d) => self.declaration(d),
                        BlockItem::Statement(s) => self.stmt(s),
                        BlockItem::StaticAssert(_) => {}
                    }
                }
            }
            Statement::Expression(Some(e)) | Statement::Return(Some(e)) => self.expr(e),
            Statement::If(i) => {
                self.expr(&i.node.condition);
                self.stmt(&i.node.then_statement);
                if let Some(e) = &i.node.else_statement {
                    self.stmt(e);
                }
            }
            Statement::Switch(sw) => {
                self.expr(&sw.node.expression);
                self.stmt(&sw.node.statement);
            }
            Statement::While(w) => {
                self.expr(&w.node.expression);
                self.stmt(&w.node.statement);
            }
            Statement::DoWhile(w) => {
                self.stmt(&w.node.statement);
                self.expr(&w.node.expression);
            }
            Statement::For(f) => {
                match &f.node.initializer.node {
                    ForInitializer::Expression(e) => self.expr(e),
                    ForInitializer::Declaration(d) => self.declaration(d),
                    _ => {}
                }
                if let Some(c) = &f.node.condition {
                    self.expr(c);
                }
                if let Some(st) = &f.node.step {
                    self.expr(st);
                }
                self.stmt(&f.node.statement);
            }
            _ => {}
        }
    }
}

/// The names declared anywhere in `units` with a pointer type: a `*` in the declarator, a
/// typedef of a pointer type, or an array parameter (a pointer in C).
pub fn pointer_names<'a>(units: impl Iterator<Item = &'a lang_c::ast::TranslationUnit>) -> HashSet<String> {
    use lang_c::visit::Visit;
    let mut v = PointerNames::default();
    for u in units {
        v.visit_translation_unit(u);
    }
    v.names
}

#[derive(Default)]
struct PointerNames {
    names: HashSet<String>,
    typedefs: HashSet<String>,
}

impl PointerNames {
    fn pointer_specifiers(&self, specs: &[Node<lang_c::ast::DeclarationSpecifier>]) -> bool {
        specs.iter().any(|s| {
            matches!(&s.node, lang_c::ast::DeclarationSpecifier::TypeSpecifier(t)
                if matches!(&t.node, lang_c::ast::TypeSpecifier::TypedefName(id) if self.typedefs.contains(&id.node.name)))
        })
    }
}

fn has_pointer(d: &lang_c::ast::Declarator, array_too: bool) -> bool {
    crate::front::ctype::derived_parts(d).iter().any(|p| {
        matches!(p.node, lang_c::ast::DerivedDeclarator::Pointer(_))
            || (array_too && matches!(p.node, lang_c::ast::DerivedDeclarator::Array(_)))
    })
}

impl<'ast> lang_c::visit::Visit<'ast> for PointerNames {
    fn visit_declaration(&mut self, d: &'ast Declaration, span: &'ast lang_c::span::Span) {
        let by_typedef = self.pointer_specifiers(&d.specifiers);
        let is_typedef = d.specifiers.iter().any(|s| {
            matches!(&s.node, lang_c::ast::DeclarationSpecifier::StorageClass(c)
                if c.node == lang_c::ast::StorageClassSpecifier::Typedef)
        });
        for init in &d.declarators {
            let decl = &init.node.declarator.node;
            let Some(name) = crate::front::ctype::declarator_name(decl) else { continue };
            if by_typedef || has_pointer(decl, false) {
                if is_typedef {
                    self.typedefs.insert(name.to_string());
                } else {
                    self.names.insert(name.to_string());
                }
            }
        }
        lang_c::visit::visit_declaration(self, d, span)
    }

    fn visit_parameter_declaration(
        &mut self,
        p: &'ast lang_c::ast::ParameterDeclaration,
        span: &'ast lang_c::span::Span,
    ) {
        if let Some(d) = &p.declarator
            && let Some(name) = crate::front::ctype::declarator_name(&d.node)
            && (self.pointer_specifiers(&p.specifiers) || has_pointer(&d.node, true))
        {
            self.names.insert(name.to_string());
        }
        lang_c::visit::visit_parameter_declaration(self, p, span)
    }
}
