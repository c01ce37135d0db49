// expect: safe
// why: a[k] = k, then swapping a[i] and a[5-i] for i = 0,1,2 reverses it: a[k] == 5-k
int a[6];

void main() {
  int i, k, t;
  for (i = 0; i < 6; i++)
    a[i] = i;
  for (i = 0; i < 3; i++) {
    t = a[i];
    a[i] = a[5 - i];
    a[5 - i] = t;
  }
  for (k = 0; k < 6; k++) {
    if (a[k] != 5 - k)
      ERROR: ;
  }
}
