export default function HomePage() {
  return (
    <main style={{ padding: "2rem", maxWidth: 720 }}>
      <h1>Mayday dispatch</h1>
      <p>
        Emergency calls from the voice agent and from disaster simulations. The API is served
        under <code>/api</code>: <a href="/api/health">/api/health</a> tells whether the service
        can take calls.
      </p>
    </main>
  );
}
