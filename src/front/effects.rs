//! Syntactic side-effect analysis, used to reject C whose result depends on an unspecified
//! evaluation order (C11 6.5p2: unsequenced side effects, and indeterminately sequenced calls).
//!
//! The analysis is by name and over-approximates: a function's effects are the globals it or
//! its callees may read or write, whether or not a local of the same name shadows them. Its only
//! use is to reject, so over-approximation can reject a correct program (with a message saying
//! why) but never accept an ambiguous one.

use std::collections::{HashMap, HashSet};

use lang_c::ast::{
    BinaryOperator, BlockItem, Declaration, Expression, ForInitializer, FunctionDefinition, Initializer, Label,
    Statement, UnaryOperator,
};
use lang_c::span::Node;

use crate::front::function_name;

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
            if let Some(v) = a.writes.iter().find(|v| b.reads.contains(*v) || b.writes.contains(*v)) {
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
}

impl Summaries {
    /// Computes summaries for `defs`, keeping only names in `globals`.
    pub fn new<'a>(defs: impl Iterator<Item = &'a FunctionDefinition>, globals: &HashSet<String>) -> Summaries {
        let mut direct: HashMap<String, (Effects, HashSet<String>)> = HashMap::new();
        for f in defs {
            let Some(name) = function_name(f) else { continue };
            let mut w = Walker { summaries: None, effects: Effects::default(), calls: HashSet::new() };
            w.stmt(&f.statement);
            direct.insert(name.to_string(), (w.effects, w.calls));
        }
        let mut map: HashMap<String, (HashSet<String>, HashSet<String>)> = direct
            .iter()
            .map(|(n, (e, _))| {
                let keep = |s: &HashSet<String>| s.iter().filter(|v| globals.contains(*v)).cloned().collect();
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
        Summaries { map }
    }

    /// The effects of one expression.
    pub fn of_expr(&self, e: &Node<Expression>) -> Effects {
        let mut w = Walker { summaries: Some(self), effects: Effects::default(), calls: HashSet::new() };
        w.expr(e);
        w.effects
    }
}

/// The names of all functions called in `defs`.
pub fn called_functions<'a>(defs: impl Iterator<Item = &'a FunctionDefinition>) -> HashSet<String> {
    let mut all = HashSet::new();
    for f in defs {
        let mut w = Walker { summaries: None, effects: Effects::default(), calls: HashSet::new() };
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

/// The variable an assignment target names: `x` or the array of `a[i]`.
fn target_name(e: &Node<Expression>) -> Option<&str> {
    match &e.node {
        Expression::Identifier(id) => Some(&id.node.name),
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => target_name(&b.node.lhs),
        _ => None,
    }
}

impl Walker<'_> {
    fn write_target(&mut self, e: &Node<Expression>) {
        if let Some(n) = target_name(e) {
            self.effects.writes.insert(n.to_string());
        }
        self.effects.any = true;
        self.expr(e);
    }

    fn expr(&mut self, e: &Node<Expression>) {
        match &e.node {
            Expression::Identifier(id) => {
                self.effects.reads.insert(id.node.name.clone());
            }
            Expression::Call(c) => {
                self.effects.any = true;
                if let Expression::Identifier(id) = &c.node.callee.node {
                    let name = &id.node.name;
                    self.calls.insert(name.clone());
                    let is_input = crate::front::nondet_type(name, crate::front::DataModel::Lp64).is_some();
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
                _ => self.expr(&u.node.operand),
            },
            Expression::BinaryOperator(b) => {
                use BinaryOperator::*;
                match b.node.operator.node {
                    Assign => {
                        // A plain assignment does not read its target, but does read its indices.
                        if let Some(n) = target_name(&b.node.lhs) {
                            self.effects.writes.insert(n.to_string());
                        }
                        self.effects.any = true;
                        if let Expression::BinaryOperator(ix) = &b.node.lhs.node
                            && ix.node.operator.node == Index
                        {
                            self.expr(&ix.node.rhs);
                        }
                        self.expr(&b.node.rhs);
                    }
                    AssignMultiply | AssignDivide | AssignModulo | AssignPlus | AssignMinus | AssignShiftLeft
                    | AssignShiftRight | AssignBitwiseAnd | AssignBitwiseXor | AssignBitwiseOr => {
                        self.write_target(&b.node.lhs);
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
