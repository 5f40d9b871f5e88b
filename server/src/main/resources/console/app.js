// The analyst console's entry module: a client of the public /api/v1.0 only.
const app = document.getElementById('app');
app.textContent = 'Attribution console';
app.dataset.state = 'ready';
