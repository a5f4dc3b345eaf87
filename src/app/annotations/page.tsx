import { Suspense } from "react";
import { AnnotationQueue } from "@/features/annotations/components/AnnotationQueue";

export default function AnnotationsPage() {
  return (
    <>
      <h1>Annotation queue</h1>
      <p className="sub">
        Teacher reasoning traces awaiting review. Accepted traces and corrections become the experience
        model's SFT data; rejected ones are left out.
      </p>
      <Suspense>
        <AnnotationQueue />
      </Suspense>
    </>
  );
}
