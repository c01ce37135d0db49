// expect: unsafe
// why: (unsigned)-1 is the largest unsigned value, so -1 > 1u holds
void reach_error() {}
int main() {
  int n = -1;
  unsigned one = 1;
  if (n > one) reach_error();
  return 0;
}
