import { render } from "preact";
import "./style.css";
import { buildModel, readEmbedded } from "./data.js";
import { App } from "./app.jsx";

const root = document.getElementById("app");

readEmbedded()
  .then((doc) => {
    const model = buildModel(doc);
    root.textContent = "";
    render(<App model={model} />, root);
    document.body.dataset.ready = "1";
  })
  .catch((error) => {
    root.textContent = "";
    const box = document.createElement("div");
    box.className = "boot error";
    box.textContent = "This report could not be read: " + (error && error.message ? error.message : String(error));
    root.appendChild(box);
    document.body.dataset.ready = "error";
  });
