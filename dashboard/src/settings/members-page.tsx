export function MembersPage() {
  return (
    <main id="main" class="page">
      <h1>To do</h1>
    </main>
  );
}
