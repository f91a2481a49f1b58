// Components: relay
// check: contained

/*
 * The new version differs from the old one only in comments, blank lines, indentation and the
 * placement of braces: the preprocessed program is the same token for token, so the lowered IR
 * is the same (only the source lines move). The checker should report `relay` as unchanged and
 * not run a containment check at all.
 */

int data(void);      /* a reading, data[0..3] in relay.lts */
void out(int v);     /* out[0..3] */
void skip(void);


void relay(void)
{

  /* three readings */
  for (int i = 0;
       i < 3;
       i++)
  {
    int d = data();
    if (d != 0)
      out(d);        /* forward it */
    else
      skip();        /* nothing to forward */
  }
}
