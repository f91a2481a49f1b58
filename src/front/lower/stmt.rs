//! Lowering of statements and branch conditions: structured control flow, `switch`, labels and
//! `goto`, declarations of locals, and C's short-circuit evaluation in conditions.

use super::*;

impl<'p> Lowerer<'p> {
    // ----- statements -----

    pub(super) fn stmt(&mut self, s: &'p Node<Statement>) -> Result<()> {
        match &s.node {
            Statement::Compound(items) => {
                self.push_scope();
                for item in items {
                    match &item.node {
                        BlockItem::Declaration(d) => self.local_declaration(d)?,
                        BlockItem::Statement(st) => self.stmt(st)?,
                        BlockItem::StaticAssert(sa) => self.static_assert(sa)?,
                    }
                }
                self.pop_scope(s.span)?;
            }
            Statement::Expression(None) => {}
            Statement::Expression(Some(e)) => {
                self.value(e, false)?;
            }
            Statement::If(i) => {
                let (then_loc, else_loc, join) = (self.new_loc(), self.new_loc(), self.new_loc());
                self.cond(&i.node.condition, then_loc, else_loc)?;
                self.cur = then_loc;
                self.stmt(&i.node.then_statement)?;
                self.fall_to(join);
                self.cur = else_loc;
                if let Some(e) = &i.node.else_statement {
                    self.stmt(e)?;
                }
                self.fall_to(join);
            }
            Statement::While(w) => {
                let (head, body, after) = (self.new_loc(), self.new_loc(), self.new_loc());
                self.fall_to(head);
                self.cond(&w.node.expression, body, after)?;
                self.cur = body;
                self.in_loop(after, head, |l| l.stmt(&w.node.statement))?;
                self.fall_to(head);
                self.cur = after;
            }
            Statement::DoWhile(w) => {
                let (body, test, after) = (self.new_loc(), self.new_loc(), self.new_loc());
                self.fall_to(body);
                self.in_loop(after, test, |l| l.stmt(&w.node.statement))?;
                self.fall_to(test);
                self.cond(&w.node.expression, body, after)?;
                self.cur = after;
            }
            Statement::For(f) => {
                self.push_scope();
                match &f.node.initializer.node {
                    ForInitializer::Empty => {}
                    ForInitializer::StaticAssert(sa) => self.static_assert(sa)?,
                    ForInitializer::Expression(e) => {
                        self.value(e, false)?;
                    }
                    ForInitializer::Declaration(d) => self.local_declaration(d)?,
                }
                let (head, body, step, after) = (self.new_loc(), self.new_loc(), self.new_loc(), self.new_loc());
                self.fall_to(head);
                match &f.node.condition {
                    Some(c) => self.cond(c, body, after)?,
                    None => self.fall_to(body),
                }
                self.cur = body;
                self.in_loop(after, step, |l| l.stmt(&f.node.statement))?;
                self.fall_to(step);
                if let Some(e) = &f.node.step {
                    self.value(e, false)?;
                }
                self.fall_to(head);
                self.cur = after;
                self.pop_scope(s.span)?;
            }
            Statement::Switch(sw) => self.switch(sw.node.expression.as_ref(), &sw.node.statement)?,
            Statement::Labeled(l) => self.labeled(&l.node.label, &l.node.statement)?,
            Statement::Goto(id) => {
                let target = self.label_loc(&id.node.name);
                if let Some(f) = self.frames.last_mut() {
                    f.gotos.push((id.node.name.clone(), id.span));
                }
                self.goto(&id.node.name, target, s.span)?;
            }
            Statement::Continue => {
                let f = self.frames.last();
                match (f.and_then(|f| f.continues.last().copied()), f.and_then(|f| f.continue_depths.last().copied())) {
                    (Some(t), Some(depth)) => {
                        self.leave_scopes(depth, s.span)?;
                        self.jump(t, s.span)
                    }
                    _ => return Err(self.error("`continue` outside a loop", "no enclosing loop", s.span)),
                }
            }
            Statement::Break => {
                let f = self.frames.last();
                match (f.and_then(|f| f.breaks.last().copied()), f.and_then(|f| f.break_depths.last().copied())) {
                    (Some(t), Some(depth)) => {
                        self.leave_scopes(depth, s.span)?;
                        self.jump(t, s.span)
                    }
                    _ => {
                        return Err(self.error("`break` outside a loop or switch", "nothing to break out of", s.span));
                    }
                }
            }
            Statement::Return(e) => {
                let (ret, ret_loc) = match self.frames.last() {
                    Some(f) => (f.ret.clone(), f.ret_loc),
                    None => (None, self.exit),
                };
                match (e, ret) {
                    (Some(e), Some(Place::Int(lv, ty))) => {
                        let v = self.rvalue(e)?;
                        self.step(Stmt::Assign(lv, v.cast(ty)), s.span)?;
                    }
                    (Some(e), Some(p)) => {
                        let v = self.value_of(e)?;
                        self.store_val(&p, v, s.span)?;
                    }
                    (Some(e), None) => {
                        self.value(e, false)?;
                    }
                    (None, Some(_)) if self.frames.last().is_some_and(|f| f.value_used) => {
                        let f = self.frames.last().map_or(String::new(), |f| f.function.clone());
                        return Err(self.error(
                            &format!("`return` without a value in `{f}`, whose result the caller uses"),
                            "returns no value",
                            s.span,
                        ));
                    }
                    (None, _) => {}
                }
                self.jump(ret_loc, s.span);
            }
            Statement::Asm(_) => return Err(self.unsupported("inline assembly", s.span)),
        }
        Ok(())
    }

    pub(super) fn in_loop(
        &mut self,
        brk: LocId,
        cont: LocId,
        body: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        if let Some(f) = self.frames.last_mut() {
            f.breaks.push(brk);
            f.continues.push(cont);
            f.break_depths.push(f.scopes.len());
            f.continue_depths.push(f.scopes.len());
        }
        let r = body(self);
        if let Some(f) = self.frames.last_mut() {
            f.breaks.pop();
            f.continues.pop();
            f.break_depths.pop();
            f.continue_depths.pop();
        }
        r
    }

    /// `goto label`: ends the lifetimes of the scopes the jump leaves, those open here that are
    /// not open at the label. A label not lowered yet is reached from a location of its own,
    /// whose edges to it are made when the label is ([`Self::labeled`]).
    fn goto(&mut self, label: &str, target: LocId, span: Span) -> Result<()> {
        if !self.tracks_lifetimes() {
            self.jump(target, span);
            return Ok(());
        }
        let Some(f) = self.frames.last() else { return Ok(()) };
        let marks = f.marks.clone();
        match f.label_scopes.get(label).cloned() {
            Some(open) => {
                if let Some(depth) = marks.iter().position(|(id, _)| !open.contains(id)) {
                    self.leave_scopes(depth, span)?;
                }
                self.jump(target, span);
            }
            None => {
                let wait = self.new_loc();
                self.jump(wait, span);
                if let Some(f) = self.frames.last_mut() {
                    f.pending_gotos.push((label.to_string(), wait, marks));
                }
            }
        }
        Ok(())
    }

    pub(super) fn label_loc(&mut self, name: &str) -> LocId {
        if let Some(&(l, _)) = self.frames.last().and_then(|f| f.labels.get(name)) {
            return l;
        }
        let l = self.new_loc();
        if let Some(f) = self.frames.last_mut() {
            f.labels.insert(name.to_string(), (l, false));
        }
        l
    }

    pub(super) fn labeled(&mut self, label: &'p Node<Label>, inner: &'p Node<Statement>) -> Result<()> {
        match &label.node {
            Label::Identifier(id) => {
                let l = self.label_loc(&id.node.name);
                let frame = self.frames.last_mut().expect("statements are lowered inside a frame");
                let entry = frame.labels.get_mut(&id.node.name).expect("label_loc made it");
                if entry.1 {
                    return Err(self.error(
                        &format!("label `{}` defined twice", id.node.name),
                        "second definition",
                        id.span,
                    ));
                }
                entry.1 = true;
                if self.tracks_lifetimes() {
                    self.goto_arrivals(&id.node.name, l, label.span)?;
                }
                self.fall_to(l);
            }
            Label::Case(e) => {
                let (v, _) = self.const_value(e)?;
                self.case(v, v, label.span)?;
            }
            Label::CaseRange(r) => {
                let (lo, _) = self.const_value(&r.node.low)?;
                let (hi, _) = self.const_value(&r.node.high)?;
                self.case(lo, hi, label.span)?;
            }
            Label::Default => {
                let l = self.new_loc();
                let Some(sw) = self.frames.last_mut().and_then(|f| f.switches.last_mut()) else {
                    return Err(self.error("`default` outside a switch", "no enclosing switch", label.span));
                };
                if sw.default.is_some() {
                    return Err(self.error("two `default` labels in one switch", "second default", label.span));
                }
                sw.default = Some(l);
                self.fall_to(l);
            }
        }
        self.stmt(inner)
    }

    /// At label `name` (location `l`): the edges of the `goto`s that waited for it, each ending
    /// the lifetimes of the scopes it leaves; later `goto`s find the scopes open here.
    fn goto_arrivals(&mut self, name: &str, l: LocId, span: Span) -> Result<()> {
        let Some(f) = self.frames.last_mut() else { return Ok(()) };
        let open: Vec<u32> = f.marks.iter().map(|m| m.0).collect();
        f.label_scopes.insert(name.to_string(), open.clone());
        let (arrivals, rest) = std::mem::take(&mut f.pending_gotos).into_iter().partition(|(n, ..)| n == name);
        f.pending_gotos = rest;
        let here = self.cur;
        for (_, wait, marks) in arrivals {
            self.cur = wait;
            if let Some(start) = marks.iter().find(|(id, _)| !open.contains(id)).map(|m| m.1) {
                self.end_lifetimes(start, span)?;
            }
            self.edge(self.cur, l, Stmt::Skip, Some(span));
        }
        self.cur = here;
        Ok(())
    }

    pub(super) fn case(&mut self, lo: i128, hi: i128, span: Span) -> Result<()> {
        let l = self.new_loc();
        let Some(ty) = self.frames.last().and_then(|f| f.switches.last()).map(|s| s.ty) else {
            return Err(self.error("`case` outside a switch", "no enclosing switch", span));
        };
        let (lo, hi) = (ty.convert(lo), ty.convert(hi));
        let sw = self.frames.last_mut().and_then(|f| f.switches.last_mut()).expect("checked above");
        if sw.cases.iter().any(|&(a, b, _, _)| a <= hi && lo <= b) {
            return Err(self.error("duplicate case value", "this value is already a case", span));
        }
        sw.cases.push((lo, hi, l, span));
        self.fall_to(l);
        Ok(())
    }

    pub(super) fn switch(&mut self, e: &'p Node<Expression>, body: &'p Node<Statement>) -> Result<()> {
        let v = self.rvalue(e)?;
        let v = v.clone().cast(v.ty.promoted());
        let head = self.cur;
        let after = self.new_loc();
        if let Some(f) = self.frames.last_mut() {
            f.switches.push(SwitchCtx { ty: v.ty, cases: Vec::new(), default: None });
            f.breaks.push(after);
            f.break_depths.push(f.scopes.len());
        }
        // The body is entered only through its labels.
        self.cur = self.new_loc();
        let r = self.stmt(body);
        let frame = self.frames.last_mut().expect("inside a frame");
        frame.breaks.pop();
        frame.break_depths.pop();
        let sw = frame.switches.pop().expect("pushed above");
        r?;
        self.fall_to(after);
        let mut none_matches = Expr::constant(1, IntTy::I32);
        for &(lo, hi, target, span) in &sw.cases {
            let hit = if lo == hi {
                cmp(BinOp::Eq, v.clone(), lo)
            } else {
                and(cmp(BinOp::Ge, v.clone(), lo), cmp(BinOp::Le, v.clone(), hi))
            };
            none_matches = and(none_matches, negate(hit.clone()));
            self.guarded_edge(head, target, hit, span);
        }
        let default = sw.default.unwrap_or(after);
        self.guarded_edge(head, default, none_matches, e.span);
        self.cur = after;
        Ok(())
    }

    /// An edge taken when `cond` holds: a skip when it always holds, nothing when it never does.
    pub(super) fn guarded_edge(&mut self, from: LocId, to: LocId, cond: Expr, span: Span) {
        match cond.as_const() {
            Some(0) => {}
            Some(_) => self.edge(from, to, Stmt::Skip, Some(span)),
            None => self.edge(from, to, Stmt::Assume(cond), Some(span)),
        }
    }

    pub(super) fn local_declaration(&mut self, decl: &'p Node<Declaration>) -> Result<()> {
        let d = &decl.node;
        let base = self.base_type(&d.specifiers, decl.span)?;
        let typedef = has_storage(&d.specifiers, StorageClassSpecifier::Typedef);
        let is_static = has_storage(&d.specifiers, StorageClassSpecifier::Static);
        let is_extern = has_storage(&d.specifiers, StorageClassSpecifier::Extern);
        for init in &d.declarators {
            let Some(name) = ctype::declarator_name(&init.node.declarator.node) else { continue };
            let declared =
                ctype::apply_declarator(base.clone(), &init.node.declarator.node, &mut |e| self.array_size(e))?;
            let ty = match declared {
                Declared::Function(_) => continue,
                Declared::Object(t) if typedef => {
                    self.bind(name, Binding::Typedef(t));
                    continue;
                }
                Declared::Object(t) => t,
            };
            if is_extern {
                self.bind(name, Binding::Global(name.to_string()));
                continue;
            }
            let redeclared = self
                .frames
                .last()
                .and_then(|f| f.scopes.last())
                .is_some_and(|scope| matches!(scope.get(name), Some(Binding::Var(_) | Binding::Obj(_))));
            if redeclared {
                return Err(self.error(
                    &format!("redeclaration of `{name}` in the same scope"),
                    "already declared in this block",
                    init.span,
                ));
            }
            let constant = is_const_object(&d.specifiers, &init.node.declarator.node);
            let vty = match ty {
                CType::Int(t) => VarTy::Scalar(t),
                CType::Array(t, n) => VarTy::Array(t, n),
                CType::Void => return Err(self.error("a variable of type void", "declared here", init.span)),
                CType::Unsupported(what, at) => return Err(self.unsupported(&what, at)),
                CType::Incomplete(t) => {
                    return Err(self.unsupported(&format!("a variable of the incomplete type `{t}`"), init.span));
                }
                other => {
                    self.declare_object(name, &other, init.node.initializer.as_ref(), is_static, init.span)?;
                    if constant && let Some(Binding::Obj(p)) = self.lookup(name) {
                        self.const_vars.extend(memory::place_vars(&p));
                    }
                    continue;
                }
            };
            if is_static {
                let unit = self.unit();
                if let Some(&v) = self.statics.get(&(unit, init.span.start)) {
                    self.bind(name, Binding::Var(v));
                    continue;
                }

                let values = self.with_file_frame(unit, |l| l.initial_values(vty, init.node.initializer.as_ref()))?;
                let f = self.frames.last().map_or(String::new(), |f| f.function.clone());
                let v = self.add_var(format!("{f}.{name}"), vty, Storage::Global { init: values });
                self.statics.insert((unit, init.span.start), v);
                if constant {
                    self.const_vars.insert(v);
                }
                self.bind(name, Binding::Var(v));
                continue;
            }
            let v = self.local(name, vty);
            self.bind(name, Binding::Var(v));
            if constant {
                self.const_vars.insert(v);
            }
            match &init.node.initializer {
                None => self.step(Stmt::Havoc(Lvalue::Var(v)), init.span)?,
                Some(i) => {
                    let items = self.initializer_items(vty, Some(i))?;
                    if let VarTy::Array(t, n) = vty {
                        // C zeroes the elements an initialiser list leaves out.
                        let mut values: Vec<Option<&Node<Expression>>> = vec![None; n as usize];
                        for (idx, e) in items {
                            values[idx] = Some(e);
                        }
                        for (idx, e) in values.into_iter().enumerate() {
                            let value = match e {
                                Some(e) => self.rvalue(e)?.cast(t),
                                None => Expr::constant(0, t),
                            };
                            let at = Expr::constant(idx as i128, IntTy::I32);
                            self.step(Stmt::Assign(Lvalue::Elem(v, at), value), init.span)?;
                        }
                    } else {
                        let value = match items.first() {
                            Some((_, e)) => self.rvalue(e)?.cast(vty.elem()),
                            None => Expr::constant(0, vty.elem()),
                        };
                        self.step(Stmt::Assign(Lvalue::Var(v), value), init.span)?;
                    }
                }
            }
        }
        Ok(())
    }

    // ----- conditions -----

    /// Lowers `e` as a branch condition: from the current location to `t` when it holds and to
    /// `f` when it does not, with C's short-circuit evaluation. A string literal is accepted here
    /// only, as the non-null pointer it decays to: every other use of one is unsupported.
    pub(super) fn cond(&mut self, e: &'p Node<Expression>, t: LocId, f: LocId) -> Result<()> {
        match &e.node {
            Expression::BinaryOperator(b)
                if matches!(b.node.operator.node, BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr) =>
            {
                self.short_circuit(&b.node, t, f)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                self.cond(&u.node.operand, f, t)
            }
            Expression::Conditional(c) => {
                let (a, b) = (self.new_loc(), self.new_loc());
                self.cond(&c.node.condition, a, b)?;
                self.cur = a;
                self.cond(&c.node.then_expression, t, f)?;
                self.cur = b;
                self.cond(&c.node.else_expression, t, f)
            }
            Expression::Comma(items) => {
                let (last, init) = items.split_last().expect("a comma expression has operands");
                for i in init {
                    self.value(i, false)?;
                }
                self.cond(last, t, f)
            }
            Expression::StringLiteral(_) => {
                // A string literal decays to a pointer to its array, which is never null: as a
                // truth value it holds (`assert(c && "why")`, `assert(!"unreachable")`).
                let from = self.cur;
                self.edge(from, t, Stmt::Skip, Some(e.span));
                self.cur = self.new_loc();
                Ok(())
            }
            _ => {
                let v = match self.value_of(e)? {
                    Val::Ptr(p) => Self::ptr_truth(&p),
                    other => truth(self.to_int(other, e.span)?),
                };
                let from = self.cur;
                self.guarded_edge(from, t, v.clone(), e.span);
                self.guarded_edge(from, f, negate(v), e.span);
                self.cur = self.new_loc();
                Ok(())
            }
        }
    }

    /// `a && b` or `a || b` as a condition: `b` is evaluated only when C evaluates it.
    pub(super) fn short_circuit(
        &mut self,
        b: &'p lang_c::ast::BinaryOperatorExpression,
        t: LocId,
        f: LocId,
    ) -> Result<()> {
        let mid = self.new_loc();
        if b.operator.node == BinaryOperator::LogicalAnd {
            self.cond(&b.lhs, mid, f)?;
        } else {
            self.cond(&b.lhs, t, mid)?;
        }
        self.cur = mid;
        self.cond(&b.rhs, t, f)
    }
}
