//! Lowering of calls: the functions the front end knows (errors, exit, assume, input, the heap),
//! inlining of defined functions with their parameters and results, and events.

use super::*;

/// The most calls nested inside one another (each inlined), counting the component's own body.
pub const MAX_CALL_DEPTH: usize = 4096;

impl<'p> Lowerer<'p> {
    // ----- calls -----

    pub(super) fn call_val(&mut self, c: &'p CallExpression, span: Span, want: bool) -> Result<Option<Val>> {
        let Expression::Identifier(id) = &c.callee.node else {
            return Err(self.unsupported("a call through a function pointer", c.callee.span));
        };
        let name = id.node.name.as_str();
        if HEAP_FUNCTIONS.contains(&name) {
            return Err(self
                .unsupported(&format!("heap allocation (`{name}`)"), span)
                .with_note("subst has no heap: objects must be variables whose address the component takes"));
        }
        if let Some(Binding::Var(_) | Binding::Global(_) | Binding::Obj(_)) = self.lookup(name) {
            return Err(self.unsupported("a call through a variable (a function pointer)", c.callee.span));
        }
        if self.const_mode {
            return Err(self.error("not a constant expression", "a call", span));
        }
        let args: Vec<&'p Node<Expression>> = c.arguments.iter().collect();
        if ERROR_FUNCTIONS.contains(&name) {
            // The error event ends the run: what follows cannot change the verdict.
            self.step(Stmt::Event(Event::Plain(ERROR_EVENT.to_string())), span)?;
            let exit = self.exit;
            self.jump(exit, span);
            return Ok(None);
        }
        // A function the sources define is the one they define, whatever its name, as gcc links
        // it: a `__VERIFIER_assume` whose body does nothing cuts no run, a `nondet_int` that
        // returns 5 is no input. Only the error functions keep their meaning, since their call
        // is the property (SV-COMP's `reach_error` has a body).
        let unit = self.unit();
        if let Some((u, i)) = self.prog.find_function(unit, name) {
            return self.inline(name, u, i, &args, span, want);
        }
        if EXIT_FUNCTIONS.contains(&name) {
            for a in &args {
                self.expr(a, false)?;
            }
            let exit = self.exit;
            self.jump(exit, span);
            return Ok(None);
        }
        if ASSUME_FUNCTIONS.contains(&name) {
            let [arg] = args.as_slice() else {
                return Err(self.error(&format!("`{name}` takes one argument"), "wrong number of arguments", span));
            };
            let (pass, fail) = (self.new_loc(), self.new_loc());
            self.cond(arg, pass, fail)?;
            // Runs where the assumption fails are cut: no edge leads to `fail`.
            self.edges.retain(|e| e.to != fail);
            self.cur = pass;
            return Ok(None);
        }
        if let Some(ty) = nondet_type(name, self.model) {
            // A prototype wider than the type the name promises (`long __VERIFIER_nondet_int()`)
            // reads bits the input does not define: taking only the named type's values would
            // prove what the compiled program does not guarantee. A narrower or same-width one
            // converts, as the caller reads the low bits of the returned register.
            let declared = match self.file(self.unit()).and_then(|f| f.names.get(name)) {
                Some(FileName::Function(Proto { ret: CType::Int(d), .. })) => Some(*d),
                _ => None,
            };
            if let Some(d) = declared
                && d.bits > ty.bits.max(8)
            {
                let c_name = super::super::builtins::nondet_c_name(name).unwrap_or("int");
                return Err(self
                    .error(
                        &format!(
                            "`{name}` is declared to return a {}-bit integer, wider than the {c_name} it returns as an input",
                            d.bits
                        ),
                        "the value of this call is not defined beyond the input's type",
                        span,
                    )
                    .with_note(format!("declare it with the type its name gives: `{c_name} {name}(void)`")));
            }
            if !args.is_empty() {
                return Err(self.error(&format!("`{name}` takes no arguments"), "wrong number of arguments", span));
            }
            if !want {
                return Ok(None);
            }
            let t = self.temp(ty);
            self.step(Stmt::Havoc(Lvalue::Var(t)), span)?;
            return Ok(Some(Val::Int(Expr::var(t, ty))));
        }
        if is_unsupported_nondet(name) {
            return Err(self.unsupported(&format!("`{name}` (a non-integer input)"), span));
        }
        Ok(self.event_call(name, &args, span, want)?.map(Val::Int))
    }

    pub(super) fn inline(
        &mut self,
        name: &str,
        unit: usize,
        index: usize,
        args: &[&'p Node<Expression>],
        span: Span,
        want: bool,
    ) -> Result<Option<Val>> {
        // Lowering recurses once per nested call: a bound keeps any input off the end of the
        // worker thread's stack (16f measured about 540 MB of it at 64,000 nested calls).
        if self.frames.len() > MAX_CALL_DEPTH {
            return Err(self
                .unsupported(&format!("calls nested more than {MAX_CALL_DEPTH} deep"), span)
                .with_note("each call is inlined into the component, and so is every call it makes"));
        }
        if self.frames.iter().any(|f| f.function == name && f.unit == unit) {
            let chain: Vec<&str> = self.frames.iter().map(|f| f.function.as_str()).collect();
            return Err(self
                .unsupported("recursion", span)
                .with_note(format!("call chain: {} -> {name}", chain.join(" -> "))));
        }
        let lang_c::ast::ExternalDeclaration::FunctionDefinition(def) = &self.prog.units[unit].ast.0[index].node else {
            return Err(self.error("internal error: not a function", "here", span));
        };
        let def = &def.node;
        let caller_unit = self.unit();
        let declared = match self.file(caller_unit).and_then(|f| f.names.get(name)) {
            Some(FileName::Function(p)) if caller_unit != unit => Some(p.clone()),
            _ => None,
        };
        self.enter_unit(unit)?;
        let (ret, params) = self.with_file_frame(unit, |l| l.function_signature(def))?;
        // C11 6.2.7p2: a call through a declaration whose type differs from the definition's is
        // undefined behaviour; gcc links it, and the caller reads the result in its own type.
        if let Some(p) = declared {
            let defined: Vec<CType> = params.iter().map(|(t, ..)| t.clone()).collect();
            let params_differ = p.params.as_ref().is_some_and(|ps| {
                ps.len() != defined.len() || ps.iter().zip(&defined).any(|(a, b)| decayed(a) != decayed(b))
            });
            if p.ret != ret || params_differ {
                let file = self.prog.units[unit].path.display().to_string();
                return Err(self
                    .error(
                        &format!("`{name}` is declared here with another type than its definition in {file}"),
                        "called through a declaration that differs from the definition",
                        span,
                    )
                    .with_note("C leaves the behaviour undefined when a function is called through an incompatible declaration"));
            }
        }
        if params.len() != args.len() {
            return Err(self.error(
                &format!("`{name}` takes {} arguments, {} given", params.len(), args.len()),
                "wrong number of arguments",
                span,
            ));
        }
        match &ret {
            CType::Void | CType::Int(_) | CType::Struct(_) | CType::Ptr(_) => {}
            CType::Unsupported(what, at) => return Err(self.unsupported_in(unit, what, *at)),
            other => {
                return Err(self.unsupported_in(
                    unit,
                    &format!("a function returning {}", other.describe()),
                    def.declarator.span,
                ));
            }
        }
        self.check_unsequenced(args, span)?;
        let mut values = Vec::new();
        for (a, (t, pspan, _)) in args.iter().zip(&params) {
            let v = match t {
                CType::Int(t) => Val::Int(self.rvalue(a)?.cast(*t)),
                CType::Ptr(_) => {
                    let v = self.value_of(a)?;
                    Val::Ptr(self.to_ptr(v, t, a.span)?)
                }
                CType::Struct(_) => match self.value_of(a)? {
                    v @ Val::Struct(_) => v,
                    _ => return Err(self.error("a struct parameter needs a struct", "not a struct", a.span)),
                },
                CType::Unsupported(what, at) => return Err(self.unsupported_in(unit, what, *at)),
                _ => return Err(self.unsupported_in(unit, "a parameter of this type", *pspan)),
            };
            values.push((t.clone(), v));
        }
        // Every variable of the call (parameters, locals, calls inside) comes from here on.
        let frame_start = self.vars.len() as u32;
        let ret_loc = self.new_loc();
        let ret = match &ret {
            CType::Void => None,
            CType::Int(t) => Some(Place::Int(Lvalue::Var(self.temp(*t)), *t)),
            other => Some(self.alloc(&format!("{name}$ret"), other, false, span)?),
        };
        // Parameters are assigned at the call, in the caller's file; they are visible only in
        // the callee's scope.
        let mut bindings = Vec::new();
        for ((_, _, pname), (t, value)) in params.iter().zip(values) {
            let Some(pname) = pname else { continue };
            match value {
                Val::Int(value) => {
                    let v = self.add_var(format!("{name}.{pname}"), VarTy::Scalar(value.ty), Storage::Local);
                    self.step(Stmt::Assign(Lvalue::Var(v), value), span)?;
                    bindings.push((*pname, Binding::Var(v)));
                }
                value => {
                    let p = self.alloc(&format!("{name}.{pname}"), &t, false, span)?;
                    self.store_val(&p, value, span)?;
                    bindings.push((*pname, Binding::Obj(p)));
                }
            }
        }
        let call = self.src_span(span);
        let mut frame = FrameCtx::new(name.to_string(), unit, self.call_stack(), Some(call), ret.clone(), ret_loc);
        frame.value_used = want && ret.is_some();
        self.frames.push(frame);
        for (pname, b) in bindings {
            self.bind(pname, b);
        }
        self.stmt(&def.statement)?;
        if let Some(p) = &ret {
            // Falling off the end of a non-void function leaves the result indeterminate.
            self.havoc_place(p, def.statement.span)?;
        }
        self.fall_to(ret_loc);
        self.end_frame()?;
        self.cur = ret_loc;
        // The call's parameters and locals end with it, after its result is stored.
        if self.tracks_lifetimes() {
            let end = def.statement.span;
            self.end_lifetimes(frame_start, Span { start: end.end.saturating_sub(1), end: end.end })?;
        }
        match ret {
            Some(p) if want => self.read_place(&p, span).map(Some),
            _ => Ok(None),
        }
    }

    pub(super) fn end_frame(&mut self) -> Result<()> {
        let frame = self.frames.last().expect("a frame to end");
        let missing = frame.gotos.iter().find(|(label, _)| !frame.labels.get(label).is_some_and(|l| l.1)).cloned();
        let result = match missing {
            Some((label, span)) => {
                Err(self.error(&format!("label `{label}` is not defined"), "goto to an unknown label", span))
            }
            None => Ok(()),
        };
        self.frames.pop();
        result
    }

    pub(super) fn family(&mut self, name: &str, ty: IntTy, span: Span) -> Result<()> {
        let range = self.prog.options.families.get(name).copied();
        if let Some((lo, hi)) = range
            && (lo > hi || !ty.contains(lo) || !ty.contains(hi))
        {
            return Err(self.error(
                &format!("the range {lo}..{hi} of event family `{name}` does not fit its C type {ty}"),
                "family used here",
                span,
            ));
        }
        match self.families.iter().find(|f| f.name == name) {
            Some(f) if f.ty != ty => Err(self.error(
                &format!("event family `{name}` is used with types {} and {ty}", f.ty),
                "used with another type here",
                span,
            )),
            Some(_) => Ok(()),
            None => {
                self.families.push(Family { name: name.to_string(), ty, range });
                Ok(())
            }
        }
    }

    pub(super) fn event_call(
        &mut self,
        name: &str,
        args: &[&'p Node<Expression>],
        span: Span,
        want: bool,
    ) -> Result<Option<Expr>> {
        let unit = self.unit();
        let proto = match self.file(unit).and_then(|f| f.names.get(name)) {
            Some(FileName::Function(p)) => Some(p.clone()),
            _ => None,
        };
        // A call without arguments receives when the spec declares the family or the prototype
        // says the function returns a value, even if the value is then discarded.
        let receives = self.prog.options.families.contains_key(name)
            || matches!(proto.as_ref().map(|p| &p.ret), Some(CType::Int(_)));
        if let Some(ps) = proto.as_ref().and_then(|p| p.params.as_ref())
            && ps.len() != args.len()
        {
            return Err(self.error(
                &format!("`{name}` is declared with {} parameters, {} arguments given", ps.len(), args.len()),
                "wrong number of arguments",
                span,
            ));
        }
        match (args, want) {
            ([], false) if !receives => {
                self.plain_events.push((name.to_string(), span, unit));
                self.step(Stmt::Event(Event::Plain(name.to_string())), span)?;
                Ok(None)
            }
            ([], _) => {
                let ty = match proto.as_ref().map(|p| &p.ret) {
                    None => IntTy::I32,
                    Some(CType::Int(t)) => *t,
                    Some(CType::Void) if !want => IntTy::I32,
                    Some(CType::Void) => {
                        return Err(self.error(
                            &format!("event `{name}` returns void but its value is used"),
                            "used as a value",
                            span,
                        ));
                    }
                    Some(_) => return Err(self.unsupported(&format!("the return type of `{name}`"), span)),
                };
                self.family(name, ty, span)?;
                if !want {
                    self.step(Stmt::Event(Event::Recv(name.to_string(), None)), span)?;
                    return Ok(None);
                }
                let t = self.temp(ty);
                self.step(Stmt::Event(Event::Recv(name.to_string(), Some(Lvalue::Var(t)))), span)?;
                Ok(Some(Expr::var(t, ty)))
            }
            ([arg], false) => {
                let v = match self.value_of(arg)? {
                    Val::Ptr(_) => {
                        return Err(self.unsupported(
                            &format!("a pointer passed to the event `{name}` (it would escape the component)"),
                            arg.span,
                        ));
                    }
                    v => self.to_int(v, arg.span)?,
                };
                let ty = match proto.as_ref().and_then(|p| p.params.as_ref()) {
                    Some(ps) if ps.len() == 1 => match &ps[0] {
                        CType::Int(t) => *t,
                        _ => return Err(self.unsupported(&format!("the parameter type of `{name}`"), span)),
                    },
                    Some(ps) => {
                        return Err(self.error(
                            &format!("`{name}` is declared with {} parameters", ps.len()),
                            "one argument given",
                            span,
                        ));
                    }
                    None => v.ty.promoted(),
                };
                self.family(name, ty, span)?;
                let v = v.cast(ty);
                if let Some((lo, hi)) = self.prog.options.families.get(name).copied() {
                    let ok = and(cmp(BinOp::Ge, v.clone(), lo), cmp(BinOp::Le, v.clone(), hi));
                    self.check(ok, Fault::EventOutOfRange, span)?;
                }
                self.step(Stmt::Event(Event::Send(name.to_string(), v)), span)?;
                Ok(None)
            }
            ([_], true) => Err(self.unsupported("an event with an argument whose result is used", span)),
            _ => Err(self.unsupported("an event call with more than one argument", span)),
        }
    }
}

/// A parameter's type as the function sees it: an array parameter is a pointer.
fn decayed(t: &CType) -> CType {
    match t {
        CType::Array(e, _) => CType::Ptr(Box::new(CType::Int(*e))),
        CType::StructArray(s, _) => CType::Ptr(Box::new(CType::Struct(s.clone()))),
        other => other.clone(),
    }
}
