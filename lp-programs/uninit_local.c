// expect: unsafe
// why: the local x is never assigned, so it can be 101 and the branch reaches the error
void main() {
  int x;
  if (x > 100)
    ERROR: ;
}
