// expect: unsafe
// why: index 3 is one past the end of the zeroed global a[3]; the read is arbitrary, not 0
int a[3];

void main() {
  int i;
  i = 3;
  if (a[i] != 0)
    ERROR: ;
}
