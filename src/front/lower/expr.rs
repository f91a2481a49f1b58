//! Lowering of expressions: values of every type, constants, operators with C's conversions and
//! checks, assignment and increments, and the unsequenced-effects checks.

use super::*;

impl<'p> Lowerer<'p> {
    // ----- expressions -----

    pub(super) fn rvalue(&mut self, e: &'p Node<Expression>) -> Result<Expr> {
        let v = self.value_of(e)?;
        self.to_int(v, e.span)
    }

    /// Lowers an expression of any type; `None` for a void one. Integer expressions are
    /// lowered by [`Self::expr`].
    pub(super) fn value(&mut self, e: &'p Node<Expression>, want: bool) -> Result<Option<Val>> {
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Binding::Obj(_) | Binding::Global(_)) => {
                    let p = self.place(e)?;
                    return self.read_place(&p, e.span).map(Some);
                }
                Some(Binding::Var(v)) if matches!(self.var_ty(v), VarTy::Array(..)) => {
                    let p = self.place(e)?;
                    return self.read_place(&p, e.span).map(Some);
                }
                _ => {}
            },
            Expression::UnaryOperator(u) => {
                let operand = &u.node.operand;
                let inc = match u.node.operator.node {
                    UnaryOperator::Address => {
                        if self.const_mode {
                            return Err(self.error("not a constant expression", "an address", e.span));
                        }
                        if let Expression::Identifier(id) = &operand.node
                            && self.lookup(&id.node.name).is_none()
                        {
                            return Err(self.unsupported("the address of a function (a function pointer)", e.span));
                        }
                        let p = self.place(operand)?;
                        return Ok(Some(Val::Ptr(self.address_of(p, e.span)?)));
                    }
                    UnaryOperator::Indirection => {
                        let p = self.place(e)?;
                        return self.read_place(&p, e.span).map(Some);
                    }
                    UnaryOperator::PostIncrement => Some((BinOp::Add, true)),
                    UnaryOperator::PostDecrement => Some((BinOp::Sub, true)),
                    UnaryOperator::PreIncrement => Some((BinOp::Add, false)),
                    UnaryOperator::PreDecrement => Some((BinOp::Sub, false)),
                    _ => None,
                };
                if let Some((op, post)) = inc {
                    let p = self.place(operand)?;
                    self.check_writable(&p, operand)?;
                    return self.increment_place(p, op, post, e.span, want).map(Some);
                }
            }
            Expression::Member(_) => {
                let p = self.place(e)?;
                return self.read_place(&p, e.span).map(Some);
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let p = self.place(e)?;
                return self.read_place(&p, e.span).map(Some);
            }
            Expression::BinaryOperator(b) => return self.binary_val(&b.node, e.span, want),
            Expression::Cast(c) => {
                let t = self.type_name(&c.node.type_name)?;
                if let CType::Ptr(_) = t {
                    let v = self.value_of(&c.node.expression)?;
                    return Ok(Some(Val::Ptr(self.to_ptr(v, &t, c.span)?)));
                }
            }
            Expression::Call(c) => return self.call_val(&c.node, e.span, want),
            Expression::Comma(items) => {
                let (last, init) = items.split_last().expect("a comma expression has operands");
                for i in init {
                    self.value(i, false)?;
                }
                return self.value(last, want);
            }
            Expression::Conditional(c) if !self.const_mode => return self.conditional(&c.node, e.span),
            _ => {}
        }
        Ok(self.expr(e, want)?.map(Val::Int))
    }

    /// `c ? x : y` of integers, pointers or void: a branch, and the value in a temporary.
    pub(super) fn conditional(&mut self, c: &'p lang_c::ast::ConditionalExpression, span: Span) -> Result<Option<Val>> {
        let (a, b, join) = (self.new_loc(), self.new_loc(), self.new_loc());
        self.cond(&c.condition, a, b)?;
        self.cur = a;
        let x = self.value(&c.then_expression, true)?;
        let a_end = self.cur;
        self.cur = b;
        let y = self.value(&c.else_expression, true)?;
        let b_end = self.cur;
        let (then_span, else_span) = (Some(c.then_expression.span), Some(c.else_expression.span));
        match (x, y) {
            (Some(Val::Int(x)), Some(Val::Int(y))) => {
                let t = IntTy::common(x.ty, y.ty);
                let tmp = self.temp(t);
                self.edge(a_end, join, Stmt::Assign(Lvalue::Var(tmp), x.cast(t)), then_span);
                self.edge(b_end, join, Stmt::Assign(Lvalue::Var(tmp), y.cast(t)), else_span);
                self.cur = join;
                Ok(Some(Val::Int(Expr::var(tmp, t))))
            }
            (None, None) => {
                self.edge(a_end, join, Stmt::Skip, None);
                self.edge(b_end, join, Stmt::Skip, None);
                self.cur = join;
                Ok(None)
            }
            (Some(x @ (Val::Ptr(_) | Val::Int(_))), Some(y @ (Val::Ptr(_) | Val::Int(_)))) => {
                let pointee = match (&x, &y) {
                    (Val::Ptr(p), _) | (_, Val::Ptr(p)) => p.pointee.clone(),
                    _ => CType::Void,
                };
                let want = CType::Ptr(Box::new(pointee.clone()));
                let px = self.to_ptr(x, &want, c.then_expression.span)?;
                let py = self.to_ptr(y, &want, c.else_expression.span)?;
                let (tag, off) = (self.temp(memory::TAG), self.temp(memory::OFF));
                for (end, p, at) in [(a_end, px, then_span), (b_end, py, else_span)] {
                    let mid = self.new_loc();
                    self.edge(end, mid, Stmt::Assign(Lvalue::Var(tag), p.tag), at);
                    self.edge(mid, join, Stmt::Assign(Lvalue::Var(off), p.off), at);
                }
                self.cur = join;
                Ok(Some(Val::Ptr(PtrVal {
                    pointee,
                    tag: Expr::var(tag, memory::TAG),
                    off: Expr::var(off, memory::OFF),
                })))
            }
            (Some(Val::Struct(_)), _) | (_, Some(Val::Struct(_))) => {
                Err(self.unsupported("a conditional expression choosing between structs", span))
            }
            _ => Err(self.error("one arm of `?:` is void and the other is not", "mixed arms", span)),
        }
    }

    pub(super) fn check_unsequenced(&self, parts: &[&'p Node<Expression>], span: Span) -> Result<()> {
        let effects: Vec<Effects> = parts.iter().map(|p| self.summaries.of_expr(p)).collect();
        for i in 0..effects.len() {
            for j in i + 1..effects.len() {
                if let Some(why) = effects[i].conflict(&effects[j]) {
                    return Err(self
                        .unsupported("operands whose evaluation order matters", span)
                        .with_note(format!("C leaves the order of these operands unspecified and {why}"))
                        .with_note("split the expression into statements to fix the order"));
                }
            }
        }
        Ok(())
    }

    /// Lowers an expression; `None` for a void one. With `want` false the value is discarded,
    /// which spares temporaries.
    pub(super) fn expr(&mut self, e: &'p Node<Expression>, want: bool) -> Result<Option<Expr>> {
        let v = match &e.node {
            Expression::Identifier(id) => self.identifier(&id.node.name, e.span)?,
            Expression::Constant(c) => self.constant(&c.node, c.span)?,
            Expression::StringLiteral(_) => {
                return Err(self.unsupported("a string literal", e.span).with_note(
                    "a string literal is accepted only as a truth value (`assert(c && \"why\")`), where it is a \
                     non-null pointer",
                ));
            }
            Expression::Call(_) => return self.int_value(e, want),
            Expression::UnaryOperator(u) => {
                let operand = &u.node.operand;
                match u.node.operator.node {
                    UnaryOperator::PostIncrement
                    | UnaryOperator::PostDecrement
                    | UnaryOperator::PreIncrement
                    | UnaryOperator::PreDecrement
                    | UnaryOperator::Address
                    | UnaryOperator::Indirection => return self.int_value(e, want),
                    UnaryOperator::Plus => {
                        let a = self.rvalue(operand)?;
                        a.clone().cast(a.ty.promoted())
                    }
                    UnaryOperator::Minus => {
                        let a = self.rvalue(operand)?;
                        let a = a.clone().cast(a.ty.promoted());
                        fold(Expr::unary(UnOp::Neg, a))
                    }
                    UnaryOperator::Complement => {
                        let a = self.rvalue(operand)?;
                        let a = a.clone().cast(a.ty.promoted());
                        fold(Expr::unary(UnOp::BitNot, a))
                    }
                    // `!"text"` is 0: the literal decays to a non-null pointer ([`Self::cond`]).
                    UnaryOperator::Negate if matches!(operand.node, Expression::StringLiteral(_)) => {
                        Expr::constant(0, IntTy::I32)
                    }
                    UnaryOperator::Negate => match self.value_of(operand)? {
                        Val::Ptr(p) => negate(Self::ptr_truth(&p)),
                        other => negate(truth(self.to_int(other, operand.span)?)),
                    },
                }
            }
            Expression::Cast(c) => match self.type_name(&c.node.type_name)? {
                CType::Void => {
                    self.value(&c.node.expression, false)?;
                    return Ok(None);
                }
                CType::Int(t) => self.rvalue(&c.node.expression)?.cast(t),
                CType::Unsupported(what, at) => return Err(self.unsupported(&what, at)),
                CType::Ptr(_) => return self.int_value(e, want),
                other => return Err(self.unsupported(&format!("a cast to {}", other.describe()), c.span)),
            },
            Expression::BinaryOperator(_) => return self.int_value(e, want),
            Expression::Conditional(c) => {
                let (a, b, join) = (self.new_loc(), self.new_loc(), self.new_loc());
                if self.const_mode {
                    // A conditional in a constant expression picks an arm statically.
                    let (c0, _) = self.const_value(&c.node.condition)?;
                    let (x, _) = self.const_value(&c.node.then_expression)?;
                    let (y, _) = self.const_value(&c.node.else_expression)?;
                    let tx = self.rvalue(&c.node.then_expression)?.ty;
                    let ty_ = self.rvalue(&c.node.else_expression)?.ty;
                    let t = IntTy::common(tx, ty_);
                    return Ok(Some(Expr::constant(if c0 != 0 { x } else { y }, t)));
                }
                self.cond(&c.node.condition, a, b)?;
                self.cur = a;
                let x = self.expr(&c.node.then_expression, true)?;
                let a_end = self.cur;
                self.cur = b;
                let y = self.expr(&c.node.else_expression, true)?;
                let b_end = self.cur;
                match (x, y) {
                    (Some(x), Some(y)) => {
                        let t = IntTy::common(x.ty, y.ty);
                        let tmp = self.temp(t);
                        self.edge(
                            a_end,
                            join,
                            Stmt::Assign(Lvalue::Var(tmp), x.cast(t)),
                            Some(c.node.then_expression.span),
                        );
                        self.edge(
                            b_end,
                            join,
                            Stmt::Assign(Lvalue::Var(tmp), y.cast(t)),
                            Some(c.node.else_expression.span),
                        );
                        self.cur = join;
                        Expr::var(tmp, t)
                    }
                    (None, None) => {
                        self.edge(a_end, join, Stmt::Skip, None);
                        self.edge(b_end, join, Stmt::Skip, None);
                        self.cur = join;
                        return Ok(None);
                    }
                    _ => return Err(self.error("one arm of `?:` is void and the other is not", "mixed arms", e.span)),
                }
            }
            Expression::Comma(items) => {
                let (last, init) = items.split_last().expect("a comma expression has operands");
                for i in init {
                    self.value(i, false)?;
                }
                return self.expr(last, want);
            }
            Expression::SizeOfTy(t) => {
                let ty = self.type_name(&t.node.0)?;
                self.size_expr(&ty, e.span)?
            }
            Expression::SizeOfVal(v) => {
                let ty = self.type_of(&v.node.0)?;
                self.size_expr(&ty, e.span)?
            }
            Expression::Member(_) => return self.int_value(e, want),
            Expression::Statement(st) => return self.statement_expr(st, want),
            Expression::GenericSelection(_) => return Err(self.unsupported("_Generic", e.span)),
            Expression::CompoundLiteral(_) => return Err(self.unsupported("a compound literal", e.span)),
            Expression::AlignOf(_) => return Err(self.unsupported("_Alignof", e.span)),
            Expression::OffsetOf(_) => return Err(self.unsupported("offsetof", e.span)),
            Expression::VaArg(_) => return Err(self.unsupported("va_arg", e.span)),
        };
        Ok(Some(v))
    }

    /// An expression that [`Self::value`] lowers, as an integer.
    pub(super) fn int_value(&mut self, e: &'p Node<Expression>, want: bool) -> Result<Option<Expr>> {
        match self.value(e, want)? {
            Some(v) => self.to_int(v, e.span).map(Some),
            None => Ok(None),
        }
    }

    pub(super) fn size_expr(&self, ty: &CType, span: Span) -> Result<Expr> {
        match self.size_align(ty).map(|(s, _)| s) {
            Some(n) => Ok(Expr::constant(n, IntTy { bits: self.model.long_bits(), signed: false })),
            None => Err(self.unsupported("sizeof of this type", span)),
        }
    }

    /// The C type of a `sizeof` operand, which C does not evaluate: arrays by their variable, any
    /// other expression by lowering it and then discarding everything the lowering made.
    pub(super) fn type_of(&mut self, e: &'p Node<Expression>) -> Result<CType> {
        if let Expression::Identifier(id) = &e.node
            && let Some(Binding::Var(v)) = self.lookup(&id.node.name)
            && let VarTy::Array(t, n) = self.var_ty(v)
        {
            return Ok(CType::Array(t, n));
        }
        let saved =
            (self.vars.len(), self.edges.len(), self.n_locs, self.cur, self.families.len(), self.plain_events.len());
        let saved_mode = std::mem::replace(&mut self.const_mode, false);
        let value = self.expr(e, true);
        self.const_mode = saved_mode;
        for v in self.vars.drain(saved.0..) {
            self.names.remove(&v.name);
        }
        self.globals.retain(|_, v| v.index() < saved.0);
        self.edges.truncate(saved.1);
        (self.n_locs, self.cur) = (saved.2, saved.3);
        self.families.truncate(saved.4);
        self.plain_events.truncate(saved.5);
        match value? {
            Some(v) => Ok(CType::Int(v.ty)),
            None => Err(self.error("sizeof of a void expression", "void", e.span)),
        }
    }

    /// A GNU statement expression `({ ...; e; })`: its value is that of the last statement.
    pub(super) fn statement_expr(&mut self, s: &'p Node<Statement>, want: bool) -> Result<Option<Expr>> {
        let Statement::Compound(items) = &s.node else {
            return Err(self.unsupported("this statement expression", s.span));
        };
        self.push_scope();
        let mut value = None;
        for (i, item) in items.iter().enumerate() {
            match &item.node {
                BlockItem::Statement(Node { node: Statement::Expression(Some(e)), .. }) if i + 1 == items.len() => {
                    value = self.expr(e, want)?;
                }
                BlockItem::Statement(st) => self.stmt(st)?,
                BlockItem::Declaration(d) => self.local_declaration(d)?,
                BlockItem::StaticAssert(_) => {}
            }
        }
        self.pop_scope(s.span)?;
        Ok(value)
    }

    pub(super) fn identifier(&mut self, name: &str, span: Span) -> Result<Expr> {
        let v = match self.lookup(name) {
            Some(Binding::Var(v)) => {
                if self.const_mode {
                    return Err(self.error("not a constant expression", "reads a variable", span));
                }
                v
            }
            Some(Binding::Global(g)) => self.global_var(&g, span)?,
            Some(Binding::Const(v, t)) => return Ok(Expr::constant(v, t)),
            Some(Binding::Typedef(_)) => return Err(self.error(&format!("`{name}` is a type"), "not a value", span)),
            Some(Binding::Obj(p)) => {
                let v = self.read_place(&p, span)?;
                return self.to_int(v, span);
            }
            Some(Binding::Unusable(what)) => return Err(self.unsupported(&what, span)),
            None => {
                let unit = self.unit();
                if let Some(FileName::Function(_)) = self.file(unit).and_then(|f| f.names.get(name)) {
                    return Err(self.unsupported("a function used as a value (a function pointer)", span));
                }
                return Err(self.undeclared(name, span));
            }
        };
        match self.var_ty(v) {
            VarTy::Scalar(t) => Ok(Expr::var(v, t)),
            VarTy::Array(..) => Err(self.unsupported("an array used as a value (a pointer)", span)),
        }
    }

    pub(super) fn constant(&self, c: &Constant, span: Span) -> Result<Expr> {
        match c {
            Constant::Integer(i) => self.integer(i, span),
            Constant::Float(_) => Err(self.unsupported("floating point", span)),
            Constant::Character(text) => self.character(text, span),
        }
    }

    /// An integer literal with the type C11 6.4.4.1 gives it.
    pub(super) fn integer(&self, i: &Integer, span: Span) -> Result<Expr> {
        if i.suffix.imaginary {
            return Err(self.unsupported("an imaginary constant", span));
        }
        let digits: &str = &i.number;
        let (radix, digits) = match i.base {
            IntegerBase::Decimal => (10, digits),
            IntegerBase::Octal => (8, digits.strip_prefix('0').filter(|d| !d.is_empty()).unwrap_or(digits)),
            IntegerBase::Hexadecimal => (16, digits.trim_start_matches("0x").trim_start_matches("0X")),
            IntegerBase::Binary => (2, digits.trim_start_matches("0b").trim_start_matches("0B")),
        };
        let Ok(value) = u128::from_str_radix(digits, radix) else {
            return Err(self.error("integer constant too large", "does not fit in 64 bits", span));
        };
        let value = value as i128;
        let long = IntTy { bits: self.model.long_bits(), signed: true };
        let decimal = i.base == IntegerBase::Decimal;
        let mut candidates: Vec<IntTy> = match i.suffix.size {
            IntegerSize::Int => vec![IntTy::I32, IntTy::U32, long, long.with_signed(false), IntTy::I64, IntTy::U64],
            IntegerSize::Long => vec![long, long.with_signed(false), IntTy::I64, IntTy::U64],
            IntegerSize::LongLong => vec![IntTy::I64, IntTy::U64],
        };
        if i.suffix.unsigned {
            candidates.retain(|t| !t.signed);
        } else if decimal {
            candidates.retain(|t| t.signed);
        }
        match candidates.into_iter().find(|t| t.contains(value)) {
            Some(t) => Ok(Expr::constant(value, t)),
            None => Err(self.error("integer constant too large", "no C type holds this value", span)),
        }
    }

    /// A character constant: an `int` holding the (signed) `char` value.
    pub(super) fn character(&self, text: &str, span: Span) -> Result<Expr> {
        let body = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\''));
        let Some(body) = body else {
            return Err(self.unsupported("a wide or multi-byte character constant", span));
        };
        let bytes = body.as_bytes();
        let value: i128 = match bytes {
            [c] => *c as i128,
            [b'\\', rest @ ..] => match rest {
                [b'n'] => 10,
                [b't'] => 9,
                [b'r'] => 13,
                [b'a'] => 7,
                [b'b'] => 8,
                [b'f'] => 12,
                [b'v'] => 11,
                [b'e'] => 27,
                [b'\\'] => 92,
                [b'\''] => 39,
                [b'"'] => 34,
                [b'?'] => 63,
                [b'x', hex @ ..] => i128::from_str_radix(std::str::from_utf8(hex).unwrap_or("z"), 16)
                    .map_err(|_| self.error("bad escape in character constant", "here", span))?,
                oct if !oct.is_empty() && oct.len() <= 3 && oct.iter().all(|c| (b'0'..=b'7').contains(c)) => {
                    i128::from_str_radix(std::str::from_utf8(oct).unwrap_or("z"), 8)
                        .map_err(|_| self.error("bad escape in character constant", "here", span))?
                }
                _ => return Err(self.error("bad escape in character constant", "here", span)),
            },
            _ => return Err(self.unsupported("a multi-character constant", span)),
        };
        Ok(Expr::constant(IntTy::I8.convert(value), IntTy::I32))
    }

    // ----- lvalues, assignment, increments -----

    pub(super) fn check(&mut self, cond: Expr, fault: Fault, span: Span) -> Result<()> {
        match cond.as_const() {
            Some(c) if c != 0 => Ok(()),
            _ if self.const_mode => {
                Err(self.error(&format!("{} in a constant expression", fault.describe()), "here", span))
            }
            _ => self.step(Stmt::Check(cond, fault), span),
        }
    }

    pub(super) fn read(lv: &Lvalue, ty: IntTy) -> Expr {
        match lv {
            Lvalue::Var(v) => Expr::var(*v, ty),
            Lvalue::Elem(v, i) => Expr { ty, kind: ExprKind::Load(*v, Box::new(i.clone())) },
        }
    }

    /// Stores `value` (already of type `ty`) and returns the stored value if wanted. The value
    /// goes through a temporary when the target's index could depend on what is stored.
    pub(super) fn store(&mut self, lv: Lvalue, ty: IntTy, value: Expr, span: Span, want: bool) -> Result<Expr> {
        if want && matches!(lv, Lvalue::Elem(..)) && value.as_const().is_none() {
            let t = self.temp(ty);
            self.step(Stmt::Assign(Lvalue::Var(t), value), span)?;
            self.step(Stmt::Assign(lv, Expr::var(t, ty)), span)?;
            return Ok(Expr::var(t, ty));
        }
        let result = match &value.kind {
            ExprKind::Const(_) => value.clone(),
            _ => Self::read(&lv, ty),
        };
        self.step(Stmt::Assign(lv, value), span)?;
        Ok(result)
    }

    /// Stores an integer into an integer place (maybe a choice of places behind a pointer).
    pub(super) fn store_place(&mut self, p: Place, ty: IntTy, value: Expr, span: Span, want: bool) -> Result<Expr> {
        match p {
            Place::Int(lv, _) => self.store(lv, ty, value, span, want),
            p => {
                let value = if value.as_const().is_some() || matches!(value.kind, ExprKind::Var(_)) {
                    value
                } else {
                    let t = self.temp(ty);
                    self.step(Stmt::Assign(Lvalue::Var(t), value), span)?;
                    Expr::var(t, ty)
                };
                self.store_val(&p, Val::Int(value.clone()), span)?;
                Ok(value)
            }
        }
    }

    /// The integer type of a place, or why it has none.
    pub(super) fn int_place_ty(&self, p: &Place, span: Span) -> Result<IntTy> {
        match memory::place_ty(p) {
            CType::Int(t) => Ok(t),
            CType::Array(..) | CType::StructArray(..) => {
                Err(self.error("an array cannot be assigned as a whole", "array", span))
            }
            other => {
                Err(self.error(&format!("an object of type {} used as an integer", other.describe()), "here", span))
            }
        }
    }

    pub(super) fn increment_place(&mut self, p: Place, op: BinOp, post: bool, span: Span, want: bool) -> Result<Val> {
        if let CType::Ptr(_) = memory::place_ty(&p) {
            let old = match self.read_place(&p, span)? {
                Val::Ptr(v) => v,
                _ => return Err(self.error("internal error: pointer place", "here", span)),
            };
            let new = self.checked_offset(old.clone(), Expr::constant(1, IntTy::I32), op, span)?;
            let result = if post && want {
                let (tag, off) = (self.temp(memory::TAG), self.temp(memory::OFF));
                self.step(Stmt::Assign(Lvalue::Var(tag), old.tag.clone()), span)?;
                self.step(Stmt::Assign(Lvalue::Var(off), old.off.clone()), span)?;
                PtrVal { tag: Expr::var(tag, memory::TAG), off: Expr::var(off, memory::OFF), ..old }
            } else {
                new.clone()
            };
            self.store_val(&p, Val::Ptr(new), span)?;
            if !post && want {
                return self.read_place(&p, span);
            }
            return Ok(Val::Ptr(result));
        }
        let ty = self.int_place_ty(&p, span)?;
        let old = self.read_int(&p, span)?;
        let one = Expr::constant(1, IntTy::I32);
        let new = self.arith(op, old.clone(), one, span)?.cast(ty);
        if post && want {
            let t = self.temp(ty);
            self.step(Stmt::Assign(Lvalue::Var(t), old), span)?;
            self.store_place(p, ty, new, span, false)?;
            return Ok(Val::Int(Expr::var(t, ty)));
        }
        self.store_place(p, ty, new, span, want).map(Val::Int)
    }

    /// Reads an integer place.
    pub(super) fn read_int(&mut self, p: &Place, span: Span) -> Result<Expr> {
        let v = self.read_place(p, span)?;
        self.to_int(v, span)
    }

    /// A binary arithmetic or comparison operator with C's conversions and checks.
    pub(super) fn arith(&mut self, op: BinOp, a: Expr, b: Expr, span: Span) -> Result<Expr> {
        if matches!(op, BinOp::Shl | BinOp::Shr) {
            let a = a.clone().cast(a.ty.promoted());
            let b = b.clone().cast(b.ty.promoted());
            let width = a.ty.bits as i128;
            let ok = if b.ty.signed {
                and(cmp(BinOp::Ge, b.clone(), 0), cmp(BinOp::Lt, b.clone(), width))
            } else {
                cmp(BinOp::Lt, b.clone(), width)
            };
            self.check(ok, Fault::ShiftOutOfRange, span)?;
            let ty = a.ty;
            return Ok(fold(Expr::binary(op, a, b.cast(ty))));
        }
        let t = IntTy::common(a.ty, b.ty);
        let (a, b) = (a.cast(t), b.cast(t));
        if matches!(op, BinOp::Div | BinOp::Rem) {
            self.check(cmp(BinOp::Ne, b.clone(), 0), Fault::DivByZero, span)?;
            if t.signed {
                let no_overflow = or(cmp(BinOp::Ne, a.clone(), t.min()), cmp(BinOp::Ne, b.clone(), -1));
                self.check(no_overflow, Fault::DivOverflow, span)?;
            }
        }
        Ok(fold(Expr::binary(op, a, b)))
    }

    pub(super) fn binary_val(
        &mut self,
        b: &'p lang_c::ast::BinaryOperatorExpression,
        span: Span,
        want: bool,
    ) -> Result<Option<Val>> {
        use BinaryOperator as B;
        let op = match b.operator.node.clone() {
            B::Index => return Err(self.error("internal error: an index lowered as an operator", "here", span)),
            B::LogicalAnd | B::LogicalOr => {
                if self.const_mode {
                    let (x, _) = self.const_value(&b.lhs)?;
                    let short = (b.operator.node == B::LogicalAnd) == (x == 0);
                    let v = if short { (x != 0) as i128 } else { (self.const_value(&b.rhs)?.0 != 0) as i128 };
                    return Ok(Some(Val::Int(Expr::constant(v, IntTy::I32))));
                }
                let (t, f, join) = (self.new_loc(), self.new_loc(), self.new_loc());
                let tmp = self.temp(IntTy::I32);
                self.short_circuit(b, t, f)?;
                self.edge(t, join, Stmt::Assign(Lvalue::Var(tmp), Expr::constant(1, IntTy::I32)), Some(span));
                self.edge(f, join, Stmt::Assign(Lvalue::Var(tmp), Expr::constant(0, IntTy::I32)), Some(span));
                self.cur = join;
                return Ok(Some(Val::Int(Expr::var(tmp, IntTy::I32))));
            }
            B::Assign => {
                self.check_assignment(&b.lhs, &b.rhs, false, span)?;
                let p = self.place(&b.lhs)?;
                self.check_writable(&p, &b.lhs)?;
                if let CType::Int(ty) = memory::place_ty(&p) {
                    let v = self.rvalue(&b.rhs)?.cast(ty);
                    return self.store_place(p, ty, v, span, want).map(|v| Some(Val::Int(v)));
                }
                self.int_place_ty(&p, span).or_else(|e| match memory::place_ty(&p) {
                    CType::Ptr(_) | CType::Struct(_) => Ok(IntTy::I32),
                    _ => Err(e),
                })?;
                let v = self.value_of(&b.rhs)?;
                self.store_val(&p, v, span)?;
                return if want { self.read_place(&p, span).map(Some) } else { Ok(None) };
            }
            B::AssignMultiply => BinOp::Mul,
            B::AssignDivide => BinOp::Div,
            B::AssignModulo => BinOp::Rem,
            B::AssignPlus => BinOp::Add,
            B::AssignMinus => BinOp::Sub,
            B::AssignShiftLeft => BinOp::Shl,
            B::AssignShiftRight => BinOp::Shr,
            B::AssignBitwiseAnd => BinOp::BitAnd,
            B::AssignBitwiseXor => BinOp::BitXor,
            B::AssignBitwiseOr => BinOp::BitOr,
            other => {
                let op = match other {
                    B::Multiply => BinOp::Mul,
                    B::Divide => BinOp::Div,
                    B::Modulo => BinOp::Rem,
                    B::Plus => BinOp::Add,
                    B::Minus => BinOp::Sub,
                    B::ShiftLeft => BinOp::Shl,
                    B::ShiftRight => BinOp::Shr,
                    B::Less => BinOp::Lt,
                    B::Greater => BinOp::Gt,
                    B::LessOrEqual => BinOp::Le,
                    B::GreaterOrEqual => BinOp::Ge,
                    B::Equals => BinOp::Eq,
                    B::NotEquals => BinOp::Ne,
                    B::BitwiseAnd => BinOp::BitAnd,
                    B::BitwiseXor => BinOp::BitXor,
                    _ => BinOp::BitOr,
                };
                self.check_unsequenced(&[&b.lhs, &b.rhs], span)?;
                let x = self.value_of(&b.lhs)?;
                let y = self.value_of(&b.rhs)?;
                return self.operands(op, x, y, span).map(Some);
            }
        };
        // Compound assignment: the target is evaluated once.
        self.check_assignment(&b.lhs, &b.rhs, true, span)?;
        let p = self.place(&b.lhs)?;
        self.check_writable(&p, &b.lhs)?;
        if let CType::Ptr(_) = memory::place_ty(&p) {
            if !matches!(op, BinOp::Add | BinOp::Sub) {
                return Err(self.unsupported("this compound assignment to a pointer", span));
            }
            let old = self.read_place(&p, span)?;
            let y = self.rvalue(&b.rhs)?;
            let Val::Ptr(old) = old else { return Err(self.error("internal error: pointer place", "here", span)) };
            let new = self.checked_offset(old, y, op, span)?;
            self.store_val(&p, Val::Ptr(new), span)?;
            return if want { self.read_place(&p, span).map(Some) } else { Ok(None) };
        }
        let ty = self.int_place_ty(&p, span)?;
        let old = self.read_int(&p, span)?;
        let y = self.rvalue(&b.rhs)?;
        let value = self.arith(op, old, y, span)?.cast(ty);
        self.store_place(p, ty, value, span, want).map(|v| Some(Val::Int(v)))
    }

    /// A binary operator on two values: integers, or pointers with C's pointer arithmetic and
    /// comparisons.
    pub(super) fn operands(&mut self, op: BinOp, x: Val, y: Val, span: Span) -> Result<Val> {
        match (x, y) {
            (Val::Ptr(p), Val::Ptr(q)) => self.ptr_binary(op, p, q, span).map(Val::Int),
            (Val::Ptr(p), Val::Int(i)) | (Val::Int(i), Val::Ptr(p))
                if matches!(op, BinOp::Eq | BinOp::Ne) && i.as_const() == Some(0) =>
            {
                let null = self.to_ptr(Val::Int(i), &CType::Ptr(Box::new(p.pointee.clone())), span)?;
                self.ptr_binary(op, p, null, span).map(Val::Int)
            }
            (Val::Ptr(p), Val::Int(i)) if matches!(op, BinOp::Add | BinOp::Sub) => {
                Ok(Val::Ptr(self.checked_offset(p, i, op, span)?))
            }
            (Val::Int(i), Val::Ptr(p)) if op == BinOp::Add => Ok(Val::Ptr(self.checked_offset(p, i, op, span)?)),
            (x, y) => {
                let x = self.to_int(x, span)?;
                let y = self.to_int(y, span)?;
                self.arith(op, x, y, span).map(Val::Int)
            }
        }
    }

    /// Rejects a write to an object declared `const`, as gcc does.
    pub(super) fn check_writable(&self, p: &Place, target: &'p Node<Expression>) -> Result<()> {
        if memory::place_vars(p).iter().any(|v| self.const_vars.contains(v)) {
            let (span, text) = self.src_span_in(self.unit(), target.span);
            return Err(Diagnostic::at(
                span,
                format!("assignment to `{text}`, which is declared `const`"),
                "read-only".to_string(),
            ));
        }
        Ok(())
    }

    /// What evaluating an assignment target does to find the object (not to read it): its
    /// indices, and the pointers it goes through.
    pub(super) fn locating_effects(&self, e: &'p Node<Expression>) -> Effects {
        let merge = |mut a: Effects, b: Effects| {
            a.reads.extend(b.reads);
            a.writes.extend(b.writes);
            a.observable |= b.observable;
            a.any |= b.any;
            a
        };
        match &e.node {
            Expression::Identifier(_) => Effects::default(),
            Expression::Member(m) if m.node.operator.node == lang_c::ast::MemberOperator::Direct => {
                self.locating_effects(&m.node.expression)
            }
            Expression::Member(m) => self.summaries.of_expr(&m.node.expression),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                self.summaries.of_expr(&u.node.operand)
            }
            Expression::BinaryOperator(ix) if ix.node.operator.node == BinaryOperator::Index => {
                let index = self.summaries.of_expr(&ix.node.rhs);
                let base = match &ix.node.lhs.node {
                    Expression::Identifier(id) if self.summaries.is_pointer(&id.node.name) => {
                        self.summaries.of_expr(&ix.node.lhs)
                    }
                    _ => self.locating_effects(&ix.node.lhs),
                };
                merge(index, base)
            }
            _ => self.summaries.of_expr(e),
        }
    }

    /// Whether the object named `name` holds a union anywhere (`None` when unknown): members
    /// of a union share their place, so their names do not keep two writes apart.
    fn has_union(&self, name: &str) -> Option<bool> {
        fn in_type(t: &CType) -> bool {
            match t {
                CType::Struct(sd) | CType::StructArray(sd, _) => sd.union || sd.fields.iter().any(|(_, f)| in_type(f)),
                _ => false,
            }
        }
        match self.lookup(name)? {
            Binding::Var(_) => Some(false),
            Binding::Obj(p) => Some(in_type(&memory::place_ty(&p))),
            Binding::Global(g) => match self.file(self.unit())?.names.get(&g)? {
                FileName::Global { ty, .. } => Some(in_type(ty)),
                _ => None,
            },
            _ => None,
        }
    }

    /// Rejects `lhs = rhs` when the order of evaluating the two sides could matter.
    pub(super) fn check_assignment(
        &self,
        lhs: &'p Node<Expression>,
        rhs: &'p Node<Expression>,
        compound: bool,
        span: Span,
    ) -> Result<()> {
        let rhs_eff = self.summaries.of_expr(rhs);
        let lhs_eff = match (&lhs.node, compound) {
            (_, true) => self.summaries.of_expr(lhs),
            (_, false) => self.locating_effects(lhs),
        };
        let mut conflict = lhs_eff.conflict(&rhs_eff);
        // `x = x++`, `s.f = s.f++`, `a[0] = a[0] = 1`: the right side updates the target's object
        // without a sequence point before the store. Writes of other elements or members
        // (`a[0] = a[1] = 0`, `s.x = s.y = 3`) are sequenced apart from it and are fine.
        if let Some((base, target)) = access_path(lhs) {
            let mut writes = WrittenTargets::default();
            lang_c::visit::Visit::visit_expression(&mut writes, &rhs.node, &rhs.span);
            let union = self.has_union(base);
            let overlaps = writes.targets.iter().any(|w| match access_path(w) {
                Some((b, path)) => b == base && may_overlap(&target, &path, union),
                // A write the path does not describe: through a pointer, which the effects
                // above judge, or of a form that may reach the target.
                None => target_of(w) == Some(base),
            });
            if overlaps {
                conflict = Some(format!("the right side may write the same object of `{base}`"));
            }
        }
        // `x = (*p)++`, `*p = x++`, `s.a = p->a++`: a pointer may point to the target, so a
        // write through one on either side may be the unsequenced second write of the target.
        // (A call's writes are sequenced before its result is stored: `x = f(&x)` is fine.)
        if conflict.is_none() && !compound {
            let mut writes = WrittenTargets::default();
            lang_c::visit::Visit::visit_expression(&mut writes, &rhs.node, &rhs.span);
            let through = |e: &Node<Expression>| match access_path(e) {
                Some((base, path)) => self.summaries.is_pointer(base) && !path.is_empty(),
                None => true,
            };
            if writes.targets.iter().any(|w| through(w)) {
                conflict = Some("the right side writes through a pointer, which may point to the target".into());
            } else if through(lhs) && !writes.targets.is_empty() {
                conflict = Some(
                    "the target is reached through a pointer, which may point to what the right side writes".into(),
                );
            }
        }
        match conflict {
            Some(why) => Err(self
                .unsupported("an assignment whose evaluation order matters", span)
                .with_note(format!("C leaves the order of the two sides unspecified and {why}"))),
            None => Ok(()),
        }
    }
}

/// One step from a variable to the object an assignment writes: a member, or an element at a
/// literal index (`None`: an index computed at run time).
#[derive(Debug, PartialEq)]
enum PathStep<'p> {
    Member(&'p str),
    Element(Option<&'p str>),
}

/// The variable an assignment target names and the steps from it to the object written, for
/// targets made of names, `.` members and indices (`a[2].f`); `None` for any other form
/// (through a pointer: `*p`, `p->f`).
fn access_path(e: &Node<Expression>) -> Option<(&str, Vec<PathStep<'_>>)> {
    match &e.node {
        Expression::Identifier(id) => Some((&id.node.name, Vec::new())),
        Expression::Member(m) if m.node.operator.node == lang_c::ast::MemberOperator::Direct => {
            let (base, mut path) = access_path(&m.node.expression)?;
            path.push(PathStep::Member(&m.node.identifier.node.name));
            Some((base, path))
        }
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            let (base, mut path) = access_path(&b.node.lhs)?;
            let literal = match &b.node.rhs.node {
                Expression::Constant(c) => match &c.node {
                    lang_c::ast::Constant::Integer(i) => Some(i.number.as_ref()),
                    _ => None,
                },
                _ => None,
            };
            path.push(PathStep::Element(literal));
            Some((base, path))
        }
        _ => None,
    }
}

/// Whether two paths from one variable may reach a common object: they part only at two
/// different literal indices (of the same base: written alike, so compared as written, which
/// only ever errs towards "may overlap" for `1` against `0x1`) or at two different members
/// of a struct (`union`: whether the variable holds a union, whose members share their place;
/// unknown counts as one).
fn may_overlap(a: &[PathStep<'_>], b: &[PathStep<'_>], union: Option<bool>) -> bool {
    for (x, y) in a.iter().zip(b) {
        match (x, y) {
            (PathStep::Element(Some(i)), PathStep::Element(Some(j))) if i != j => return false,
            (PathStep::Member(f), PathStep::Member(g)) if f != g && union == Some(false) => return false,
            _ => {}
        }
    }
    true
}

/// The targets of the assignments, compound assignments, `++` and `--` inside an expression.
#[derive(Default)]
struct WrittenTargets<'ast> {
    targets: Vec<&'ast Node<Expression>>,
}

impl<'ast> lang_c::visit::Visit<'ast> for WrittenTargets<'ast> {
    fn visit_binary_operator_expression(
        &mut self,
        b: &'ast lang_c::ast::BinaryOperatorExpression,
        span: &'ast lang_c::span::Span,
    ) {
        use BinaryOperator as B;
        if matches!(
            b.operator.node,
            B::Assign
                | B::AssignMultiply
                | B::AssignDivide
                | B::AssignModulo
                | B::AssignPlus
                | B::AssignMinus
                | B::AssignShiftLeft
                | B::AssignShiftRight
                | B::AssignBitwiseAnd
                | B::AssignBitwiseXor
                | B::AssignBitwiseOr
        ) {
            self.targets.push(&b.lhs);
        }
        lang_c::visit::visit_binary_operator_expression(self, b, span);
    }

    fn visit_unary_operator_expression(
        &mut self,
        u: &'ast lang_c::ast::UnaryOperatorExpression,
        span: &'ast lang_c::span::Span,
    ) {
        use lang_c::ast::UnaryOperator as U;
        if matches!(u.operator.node, U::PreIncrement | U::PreDecrement | U::PostIncrement | U::PostDecrement) {
            self.targets.push(&u.operand);
        }
        lang_c::visit::visit_unary_operator_expression(self, u, span);
    }
}
