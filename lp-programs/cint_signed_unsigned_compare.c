// expect: safe
// why: in i < n, n = -1 converts to unsigned 4294967295, so the comparison holds and main returns
void reach_error() {}
int main() {
  unsigned i = 0;
  int n = -1;
  if (i < n) return 0;
  reach_error();
  return 0;
}
